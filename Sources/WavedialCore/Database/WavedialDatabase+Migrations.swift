import GRDB

extension WavedialDatabase {
    /// The schema's history. Migrations are frozen once shipped: never edit one, add the next.
    /// Never erased on schema change: favorites and history must survive every upgrade.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE station (
                    id INTEGER PRIMARY KEY,
                    stationuuid TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL,
                    url TEXT NOT NULL,
                    url_resolved TEXT NOT NULL DEFAULT '',
                    homepage TEXT NOT NULL DEFAULT '',
                    favicon TEXT NOT NULL DEFAULT '',
                    tags TEXT NOT NULL DEFAULT '',
                    country TEXT NOT NULL DEFAULT '',
                    countrycode TEXT NOT NULL DEFAULT '',
                    state TEXT NOT NULL DEFAULT '',
                    language TEXT NOT NULL DEFAULT '',
                    languagecodes TEXT NOT NULL DEFAULT '',
                    codec TEXT NOT NULL DEFAULT '',
                    bitrate INTEGER NOT NULL DEFAULT 0,
                    hls BOOLEAN NOT NULL DEFAULT 0,
                    lastcheckok BOOLEAN NOT NULL DEFAULT 1,
                    geo_lat REAL,
                    geo_long REAL,
                    votes INTEGER NOT NULL DEFAULT 0,
                    clickcount INTEGER NOT NULL DEFAULT 0,
                    lastchangetime TEXT NOT NULL DEFAULT '',
                    playable BOOLEAN NOT NULL DEFAULT 0
                );
                CREATE INDEX station_country ON station(countrycode, playable, votes);
                CREATE INDEX station_popularity ON station(playable, votes, clickcount);
                CREATE INDEX station_name ON station(name COLLATE NOCASE);

                -- The download lands here first; one transaction then applies it to station.
                CREATE TABLE stationImport AS SELECT * FROM station WHERE 0;
                CREATE UNIQUE INDEX stationImport_uuid ON stationImport(stationuuid);

                -- Full-text search over folded text (NFKC), case- and diacritic-insensitive.
                CREATE VIRTUAL TABLE stationSearch USING fts5(
                    name, tags, country, language, content='', tokenize="unicode61 remove_diacritics 2");

                -- Positions of playable stations with valid coordinates, for nearby queries.
                CREATE VIRTUAL TABLE stationGeo USING rtree(id, minLat, maxLat, minLon, maxLon);

                CREATE TABLE favorite (
                    stationuuid TEXT PRIMARY KEY NOT NULL,
                    position INTEGER NOT NULL,
                    added_at DATETIME NOT NULL,
                    snapshot TEXT NOT NULL
                );

                CREATE TABLE dialAssignment (
                    band TEXT NOT NULL,
                    stationuuid TEXT NOT NULL,
                    khz INTEGER NOT NULL,
                    PRIMARY KEY (band, stationuuid),
                    UNIQUE (band, khz)
                );

                CREATE TABLE playHistory (
                    id INTEGER PRIMARY KEY,
                    stationuuid TEXT NOT NULL,
                    name TEXT NOT NULL,
                    played_at DATETIME NOT NULL
                );
                CREATE INDEX playHistory_time ON playHistory(played_at);

                CREATE TABLE songHistory (
                    id INTEGER PRIMARY KEY,
                    stationuuid TEXT NOT NULL,
                    station_name TEXT NOT NULL,
                    title TEXT NOT NULL,
                    heard_at DATETIME NOT NULL
                );
                CREATE INDEX songHistory_time ON songHistory(heard_at);

                CREATE TABLE setting (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                """)
        }
        migrator.registerMigration("v2-search-in-popularity-order") { db in
            try db.execute(sql: """
                -- Full-text rows are numbered by popularity (playable, votes, clicks, id: the most popular
                -- highest), so that a search reads its matches most popular first and stops at its limit;
                -- stationRank maps a row back to its station. The country code is searched there too.
                DROP TABLE stationSearch;
                CREATE VIRTUAL TABLE stationSearch USING fts5(
                    name, tags, country, language, countrycode, content='', tokenize="unicode61 remove_diacritics 2");
                CREATE TABLE stationRank (rank INTEGER PRIMARY KEY, id INTEGER NOT NULL);
                INSERT INTO stationRank(rank, id)
                    SELECT row_number() OVER (ORDER BY playable, votes, clickcount, id), id FROM station;
                INSERT INTO stationSearch(rowid, name, tags, country, language, countrycode)
                    SELECT r.rank, wd_fold(s.name), wd_fold(s.tags), wd_fold(s.country), wd_fold(s.language), s.countrycode
                    FROM stationRank r JOIN station s ON s.id = r.id;
                """)
        }
        migrator.registerMigration("v3-playable-every-format") { db in
            try db.execute(sql: """
                -- AAC, Ogg (Opus, Vorbis), FLAC and HLS stations play now. playable is re-derived by the
                -- sync's rule (wd_playable) at once, not at the next sync, and what depends on it is
                -- rebuilt: the geo index of playable stations and the popularity numbering of the search.
                -- Favorites and dial assignments are kept; the nearby band takes in the newly playable
                -- stations when it is next built (at the daemon's start).
                UPDATE station SET playable = wd_playable(codec, hls, lastcheckok, url, url_resolved)
                    WHERE playable IS NOT wd_playable(codec, hls, lastcheckok, url, url_resolved);
                DELETE FROM stationGeo WHERE id IN (SELECT id FROM station WHERE NOT playable);
                CREATE TEMP TABLE geoPending AS SELECT id FROM station
                    WHERE playable AND geo_lat BETWEEN -90 AND 90 AND geo_long BETWEEN -180 AND 180
                      AND NOT (geo_lat = 0 AND geo_long = 0)
                      AND id NOT IN (SELECT id FROM stationGeo);
                INSERT INTO stationGeo(id, minLat, maxLat, minLon, maxLon)
                    SELECT s.id, s.geo_lat, s.geo_lat, s.geo_long, s.geo_long FROM geoPending p JOIN station s ON s.id = p.id;
                DROP TABLE geoPending;
                DELETE FROM stationRank;
                INSERT INTO stationRank(rank, id)
                    SELECT row_number() OVER (ORDER BY playable, votes, clickcount, id), id FROM station;
                INSERT INTO stationSearch(stationSearch) VALUES ('delete-all');
                INSERT INTO stationSearch(rowid, name, tags, country, language, countrycode)
                    SELECT r.rank, wd_fold(s.name), wd_fold(s.tags), wd_fold(s.country), wd_fold(s.language), s.countrycode
                    FROM stationRank r JOIN station s ON s.id = r.id;
                """)
        }
        migrator.registerMigration("v4-text-favorites-url-index") { db in
            try db.execute(sql: """
                -- A favorites playlist import looks each entry's URL up in the catalog (url or url_resolved):
                -- by index, not by scanning every station once per line.
                CREATE INDEX station_url ON station(url);
                CREATE INDEX station_url_resolved ON station(url_resolved);
                """)
        }
        migrator.registerMigration("v4-net-staging-apart") { db in
            // A sync stages its download in a file of its own now (CatalogImport), removed after it.
            try db.execute(sql: "DROP TABLE stationImport")
        }
        migrator.registerMigration("v4-net-typed-favorites") { db in
            try db.execute(sql: """
                -- Favorites whose station the user gave (imported from a file, not found in the catalog): their
                -- URL is the user's, so it may reach the home network (a catalog station's may not), and a sync
                -- never replaces their snapshot. Existing favorites count as the catalog's, the stricter side.
                CREATE TABLE typedFavorite (
                    stationuuid TEXT PRIMARY KEY NOT NULL REFERENCES favorite(stationuuid) ON DELETE CASCADE
                );
                """)
        }
        migrator.registerMigration("v4-deploy-history-without-time-indexes") { db in
            try db.execute(sql: """
                -- History is read newest first by id; these indexes were never read, and each history
                -- write rewrote a page of them on the SD card.
                DROP INDEX IF EXISTS playHistory_time;
                DROP INDEX IF EXISTS songHistory_time;
                """)
        }
        migrator.registerMigration("v4-loud-station-loudness") { db in
            try db.execute(sql: """
                -- Each station's integrated loudness (EBU R128) as the player last measured it, the gain's
                -- starting guess when it is tuned again. Apart from station: a sync neither replaces nor
                -- drops it, and a station the user typed (no catalog row) has one too.
                CREATE TABLE stationLoudness (
                    stationuuid TEXT PRIMARY KEY NOT NULL,
                    loudness_lufs REAL NOT NULL,
                    measured_at DATETIME NOT NULL
                );
                """)
        }
        migrator.registerMigration("v5-clock-alarms") { db in
            try db.execute(sql: """
                -- Alarms: a wall-clock time, its days (bit 0 Sunday) and the station to play (none: the last one).
                CREATE TABLE alarm (
                    id INTEGER PRIMARY KEY,
                    hour INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
                    minute INTEGER NOT NULL CHECK (minute BETWEEN 0 AND 59),
                    second INTEGER NOT NULL DEFAULT 0 CHECK (second BETWEEN 0 AND 59),
                    days INTEGER NOT NULL CHECK (days BETWEEN 1 AND 127),
                    stationuuid TEXT,
                    station_name TEXT,
                    enabled BOOLEAN NOT NULL DEFAULT 1
                );
                """)
        }
        return migrator
    }
}
