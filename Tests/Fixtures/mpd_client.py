#!/usr/bin/python3
"""What Home Assistant's MPD integration asks of an MPD server, through python-mpd2 (Debian's python3-mpd).

Usage: mpd_client.py HOST PORT PASSWORD [ACTION...]; PASSWORD may be "" (none given). Each ACTION is a
command with its arguments after colons ("setvol:25", "play:1", "idle:mixer"). Prints one JSON object:
the greeting's version, the answers to what the integration polls, and each action's answer (a failed
command as {"error": its message}).
"""
import json
import sys

from mpd import CommandError, MPDClient

host, port, password = sys.argv[1], int(sys.argv[2]), sys.argv[3]
# A command MPD does not have, to see its error as a client library reads it.
MPDClient.add_command("frobnicate", MPDClient._parse_nothing)
client = MPDClient()
client.timeout = 20
client.connect(host, port)
answers = {"version": client.mpd_version}
if password:
    client.password(password)
# The integration's calls when it connects and on each update (homeassistant/components/mpd/media_player.py).
for name in ["status", "currentsong", "playlistinfo", "listplaylists", "outputs", "commands", "notcommands",
             "tagtypes", "urlhandlers", "decoders", "stats"]:
    answers[name] = getattr(client, name)()
client.ping()
for action in sys.argv[4:]:
    name, *arguments = action.split(":")
    try:
        answers[action] = getattr(client, name)(*arguments)
    except CommandError as error:
        answers[action] = {"error": str(error)}
answers["status_after"] = client.status()
answers["currentsong_after"] = client.currentsong()
client.close()
client.disconnect()
print(json.dumps(answers))
