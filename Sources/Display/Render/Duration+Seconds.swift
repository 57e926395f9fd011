extension Duration {
    /// The duration in seconds, for the display's clock arithmetic (marquee steps, wake-ups).
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
