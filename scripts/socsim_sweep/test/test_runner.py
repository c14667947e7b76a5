"""The runner's clean-up of temporary folders left by killed sweeps."""
import os
import subprocess
import tempfile
import unittest

from socsim_sweep import runner


class StaleTemporaries(unittest.TestCase):
    def test_only_folders_of_gone_processes_are_removed(self):
        gone = subprocess.Popen(["true"])
        gone.wait()  # its pid names no process any more
        with tempfile.TemporaryDirectory() as points:
            names = {
                "stale": f"0123456789abcdef.tmp-{gone.pid}-140000",
                "own": f"fedcba9876543210.tmp-{os.getpid()}-1",
                "parent": f"00112233aabbccdd.tmp-{os.getppid()}-1",
                "point": "0123456789abcdef",
                "other": "notes.tmp-x-1",
            }
            for name in names.values():
                os.makedirs(os.path.join(points, name))
            self.assertEqual(runner.remove_stale_temporaries(points), 1)
            self.assertEqual(sorted(os.listdir(points)),
                             sorted(n for k, n in names.items() if k != "stale"))
            self.assertEqual(runner.remove_stale_temporaries(os.path.join(points, "none")), 0)


class Interrupts(unittest.TestCase):
    def test_statuses_of_a_stopped_run(self):
        self.assertTrue(runner.interrupted(143))
        self.assertTrue(runner.interrupted(-15))
        self.assertTrue(runner.interrupted(130))
        self.assertFalse(runner.interrupted(74))
        self.assertFalse(runner.interrupted(None))


if __name__ == "__main__":
    unittest.main()
