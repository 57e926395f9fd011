import Foundation

/// The page's icon, answered at `GET /favicon.ico` (where browsers ask without being told): a dial with
/// its needle, drawn as SVG, which browsers take at that path by its type. Cacheable for a week: it only
/// changes with the firmware.
enum WebIcon {
    static let path = "/favicon.ico"

    static let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">\
        <rect x="1" y="6" width="30" height="20" rx="4" fill="#2b2118"/>\
        <rect x="4" y="9" width="24" height="9" rx="1" fill="#f3e3c3"/>\
        <path d="M7 12v3M11 13v2M15 12v3M19 13v2M23 12v3" stroke="#2b2118" stroke-width="1"/>\
        <path d="M17 9v9" stroke="#d0342c" stroke-width="1.5"/>\
        <circle cx="9" cy="22" r="2" fill="#f3e3c3"/><circle cx="23" cy="22" r="2" fill="#f3e3c3"/>\
        </svg>
        """

    static var response: HttpResponse {
        HttpResponse(status: 200, headers: ["Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=604800"],
                     body: Data(svg.utf8))
    }
}
