"""1,000 consecutive zettasim.run calls of the default scenario in one interpreter: its resident memory grows
by less than 50 MB (each run simulates in a child process, so the simulator's state never accumulates)."""

import os
import unittest

import zettasim

SOURCE = os.environ["ZS_SOURCE_DIR"]


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class ManyRuns(unittest.TestCase):
    def test_a_thousand_runs(self):
        scenario = zettasim.Scenario.load(os.path.join(SOURCE, "scenarios/default.json"))
        first = zettasim.run(scenario)
        before = resident_bytes()
        for _ in range(1000):
            r = zettasim.run(scenario)
        self.assertEqual(r.summary, first.summary)
        grown = resident_bytes() - before
        self.assertLess(grown, 50e6, f"resident memory grew by {grown / 1e6:.1f} MB")


if __name__ == "__main__":
    unittest.main()
