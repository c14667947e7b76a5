"""Progress of a sweep: a bar with rate and ETA on a terminal, one line per point otherwise."""

import sys
import time


def format_duration(seconds):
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class Progress:
    WIDTH = 28

    def __init__(self, total, stream=None, label="points"):
        self.total = total
        self.stream = stream or sys.stderr
        self.label = label
        self.tty = self.stream.isatty()
        self.start = time.monotonic()
        self.done = 0
        self.failed = 0
        self.shown = False

    def line(self):
        elapsed = time.monotonic() - self.start
        frac = self.done / self.total if self.total else 1.0
        filled = int(frac * self.WIDTH)
        bar = "=" * filled + (">" if filled < self.WIDTH else "") + \
            " " * max(0, self.WIDTH - filled - 1)
        text = f"[{bar}] {self.done}/{self.total} {self.label}"
        if self.failed:
            text += f", {self.failed} failed"
        text += f", {format_duration(elapsed)}"
        if self.done and elapsed > 0:
            rate = self.done / elapsed * 60
            eta = (self.total - self.done) * elapsed / self.done
            text += f", {rate:.1f}/min, ETA {format_duration(eta)}"
        return text

    def advance(self, ok, message=None):
        self.done += 1
        if not ok:
            self.failed += 1
        if self.tty:
            if message and not ok:
                self._clear()
                print(message, file=self.stream)
            self.redraw()
        elif message:
            print(f"[{self.done}/{self.total}] {message}", file=self.stream, flush=True)

    def redraw(self):
        if self.tty:
            self.stream.write("\r" + self.line() + "\033[K")
            self.stream.flush()
            self.shown = True

    def _clear(self):
        if self.shown:
            self.stream.write("\r\033[K")

    def close(self):
        if self.tty and self.shown:
            self.stream.write("\n")
            self.stream.flush()
