"""Work held back in another process until the test releases it: shows what is served meanwhile."""

import os
import time
from pathlib import Path


class HeldElsewhere:
    """``work`` (a module-level function), picklable; when called in a process other than the one that
    made it, it writes that process's id to ``folder/started`` and waits for ``release()`` (at most a
    minute) before doing the work. Called in the making process, it just works."""

    def __init__(self, folder: Path, work):
        self._folder, self._work, self._maker = folder, work, os.getpid()

    def __call__(self, *args):
        if os.getpid() != self._maker:
            (self._folder / "started.part").write_text(str(os.getpid()))
            (self._folder / "started.part").rename(self._folder / "started")
            for _ in range(6000):
                if (self._folder / "release").exists():
                    break
                time.sleep(0.01)
        return self._work(*args)

    def started(self, seconds: float = 60.0) -> int | None:
        """The id of the process it was called in, once it was (None after ``seconds``)."""
        for _ in range(int(seconds / 0.01)):
            if (self._folder / "started").exists():
                return int((self._folder / "started").read_text())
            time.sleep(0.01)
        return None

    def release(self) -> None:
        (self._folder / "release").touch()
