"""sched-fuzz: nests (nest.py, gen.py), schedules and their oracle (model.py, schedgen.py), programs and runs (program.py, runner.py), summaries (report.py), delta-debugging (minimize.py)."""
