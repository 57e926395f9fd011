import Hardware
import WavedialCore

extension IRSettings {
    /// Reads `[ir]` and `[ir.keys]`: each key of `[ir.keys]` a kernel key name (`KEY_VOLUMEUP`, as
    /// ir-keytable's keymaps name them), each value an action (``IRAction``) or "none"; keys not set keep
    /// their default action.
    init(_ section: ConfigSection) {
        self.init()
        isEnabled = section.bool("enabled", default: isEnabled)
        let named = section.string("device", default: device)
        if named.isEmpty || named.utf8.count > 255 || named.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            section.report("device", "must be an input device's name (e.g. \"gpio_ir_recv\") or a path, of 1 to 255 printable characters")
        } else {
            device = named
        }
        volumeStepPercent = section.int("volume_step", default: volumeStepPercent, range: 1...25)

        let keySection = section.section("keys")
        for name in keySection.keys {
            guard let actionName = keySection.optionalString(name) else { continue }
            guard name.utf8.count <= 64, let code = KeyCode(name: name.uppercased()) else {
                keySection.report(name, "is not a key the kernel knows: use the KEY_ names of linux/input-event-codes.h "
                    + "and ir-keytable, e.g. KEY_VOLUMEUP, KEY_1")
                continue
            }
            if actionName == "none" {
                keys[code] = nil
            } else if let action = IRAction(name: actionName) {
                keys[code] = action
            } else {
                keySection.report(name, "must be one of \(IRAction.names), not \"\(actionName.prefix(40))\"")
            }
        }
    }
}
