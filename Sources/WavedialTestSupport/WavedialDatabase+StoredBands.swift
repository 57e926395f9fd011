import WavedialCore

extension WavedialDatabase {
    /// The nearby band planned and its plan stored, as the daemon's controller and store do in turn.
    public func nearbyBand(
        location: Coordinate, countryCode: String?, settings: DialSettings
    ) throws -> (band: DialBand, stations: [NearbyStation]) {
        let (plan, stations) = try planNearbyBand(location: location, countryCode: countryCode, settings: settings)
        try storeDialPlan(plan)
        return (plan.band, stations)
    }

    /// The favorites band planned and its plan stored, as the daemon's controller and store do in turn.
    public func favoritesBand(_ band: Band) throws -> (band: DialBand, favorites: [Favorite]) {
        let (plan, favorites) = try planFavoritesBand(band)
        try storeDialPlan(plan)
        return (plan.band, favorites)
    }
}
