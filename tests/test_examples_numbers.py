"""docs/tutorials.md's numbers for the short example runs are the ones the code gives now: each case runs
an example script, reads its numbers from what it prints, and looks for them, written as the docs write
them, in docs/tutorials.md. A change that moves a number (an op's kernel, torch, the generator) fails here
until the docs say the new one; a torch training run's fourth decimal may differ by float rounding from
one CPU to another (its kernels: AVX-512 or AVX2), so its case allows that much. The long runs
(Shakespeare's 2,000 steps, the islands, the writer) are measured by hand; docs/tutorials.md says with
which torch and thread count."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "tutorials.md"

# (the script and its arguments, a pattern for what it prints, the docs' phrases from the pattern's groups,
# how far the docs' numbers may be from the run's)
CASES = {
    "letters": (
        ["examples/letters/run_letters.py"],
        r"learn\(200\): first loss (\S+), last loss (\S+)",
        ["`learn(200)`: first {0}, last {1}"],
        0,
    ),
    "microgpt in numpy": (
        ["examples/microgpt/search_port.py", "--check"],
        r"\{'step300': (\S+), 'emma': (\S+), 'xqzzk': (\S+), 'step1000': (\S+), 'names': '([a-z ]+)'\}",
        [
            "`step 300 / 1000 | loss {0}`",
            "`emma: {1}`, `xqzzk: {2}`",
            "`step 1000 / 1000 | loss {3}`",
            "| `sample(20, 0.5)` at 1,000 | {4} |",
        ],
        0,  # numpy, on one thread
    ),
    # 60 steps: the kills land in the third and the fifth batch of 10, each restart re-runs the device's
    # record since the load, and the steps after the last kill are a batch and more.
    "crash, 60 steps": (
        ["examples/islands/run_crash.py", "--steps", "60"],
        r"uninterrupted: step 60: (train loss \S+, val loss \S+)",
        ["(60 steps: `{0}` both ways)"],
        1e-3,  # 2.7442 and 2.7343 on an AMD EPYC with AVX2 only, 2.7444 and 2.7347 with AVX-512
    ),
}


@pytest.mark.slow  # moxzid processes, training, kills
@pytest.mark.timeout(900)  # the crash run takes about 35 s on an idle machine and over 90 s on a busy one
@pytest.mark.parametrize("case", CASES)
def test_the_docs_give_the_numbers_a_run_gives(case):
    command, pattern, phrases, tolerance = CASES[case]
    done = subprocess.run([sys.executable, *command], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout + done.stderr
    found = re.search(pattern, done.stdout)
    assert found, done.stdout
    doc = DOC.read_text()
    for phrase in phrases:
        said = phrase.format(*found.groups())
        assert _said_within(doc, said, tolerance), f"docs/tutorials.md does not say {said}"


NUMBER = r"-?\d+\.\d+"


def _said_within(doc: str, said: str, tolerance: float) -> bool:
    """Whether ``doc`` has ``said`` with each of its decimal numbers at most ``tolerance`` away (none:
    word for word)."""
    if not tolerance:
        return said in doc
    wanted = [float(n) for n in re.findall(NUMBER, said)]
    pattern = f"({NUMBER})".join(re.escape(text) for text in re.split(NUMBER, said))
    return any(
        all(abs(float(a) - b) <= tolerance for a, b in zip(found.groups(), wanted, strict=True))
        for found in re.finditer(pattern, doc)
    )
