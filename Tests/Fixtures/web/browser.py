#!/usr/bin/env python3
"""Drives a real headless Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe:
commands on fd 3, answers on fd 4, each message ended by a NUL), with Python's standard library only.

Usage: browser.py URL [--width W] [--height H] [--screenshot PNG] [--step JS]...
Loads URL at W x H (a phone: 360 x 780), then evaluates each --step in the page in order (a step may
return a promise; its value is awaited), and prints one JSON object: {"steps": [value, ...]}.
A step that throws ends the run with exit status 1 and the exception on stderr.
"""
import argparse, base64, json, os, shutil, subprocess, sys, tempfile, time


class Browser:
    def __init__(self, width, height):
        self.profile = tempfile.mkdtemp(prefix="wd-chromium-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        binary = shutil.which("chromium") or shutil.which("chromium-browser")
        if binary is None:
            sys.exit("no chromium: apt-get install chromium (scripts/packages/test-web.txt)")
        # fd 3 and 4 in the child are the protocol's pipe (through high numbers first: the pipe's own
        # descriptors may be 3 or 4). The pipe's descriptors are close-on-exec; the dup2 copies are not.
        def child_fds():
            os.dup2(to_browser_r, 20)
            os.dup2(from_browser_w, 21)
            os.dup2(20, 3)
            os.dup2(21, 4)
            os.close(20)
            os.close(21)
        self.process = subprocess.Popen(
            [binary, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-extensions", "--disable-background-networking", "--disable-dev-shm-usage",
             "--user-data-dir=" + self.profile, f"--window-size={width},{height}", "about:blank"],
            close_fds=False, preexec_fn=child_fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.next_id = 0
        self.pending = b""

    def send(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            for reply in self.read():
                if reply.get("id") == self.next_id:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply.get("result", {})
        raise TimeoutError(f"{method}: no answer in {timeout} s")

    def read(self):
        chunk = os.read(self.from_browser, 1 << 20)
        if not chunk:
            raise RuntimeError("chromium closed the pipe")
        self.pending += chunk
        *messages, self.pending = self.pending.split(b"\0")
        return [json.loads(m) for m in messages if m]

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--width", type=int, default=360)
    parser.add_argument("--height", type=int, default=780)
    parser.add_argument("--screenshot")
    parser.add_argument("--step", action="append", default=[])
    args = parser.parse_args()
    browser = Browser(args.width, args.height)
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        browser.send("Emulation.setDeviceMetricsOverride",
                     {"width": args.width, "height": args.height, "deviceScaleFactor": 1, "mobile": args.width < 600},
                     session)
        browser.send("Page.enable", session=session)
        browser.send("Page.navigate", {"url": args.url}, session)
        ready = "new Promise(r => document.readyState === 'complete' ? r(true) : addEventListener('load', () => r(true)))"
        browser.send("Runtime.evaluate", {"expression": ready, "awaitPromise": True}, session)
        values = []
        for step in args.step:
            result = browser.send("Runtime.evaluate",
                                  {"expression": step, "awaitPromise": True, "returnByValue": True}, session)
            if "exceptionDetails" in result:
                print(json.dumps(result["exceptionDetails"]), file=sys.stderr)
                return 1
            values.append(result.get("result", {}).get("value"))
        if args.screenshot:
            height = browser.send("Runtime.evaluate", {"expression": "document.documentElement.scrollHeight",
                                                      "returnByValue": True}, session)["result"]["value"]
            shot = browser.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                         "clip": {"x": 0, "y": 0, "width": args.width,
                                                                  "height": max(args.height, height), "scale": 1}},
                                session)
            with open(args.screenshot, "wb") as out:
                out.write(base64.b64decode(shot["data"]))
        print(json.dumps({"steps": values}))
        return 0
    finally:
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
