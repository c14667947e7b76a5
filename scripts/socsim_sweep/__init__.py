"""Design-space exploration over socsim runs: `socsim sweep` (docs/sweeps.md).

source    YAML values with file and line, strict map readers
spec      the sweep description: reading and validating a sweep file
expr      expressions of constraints and metrics
expand    a sweep's points (grids, zipped axes, random samples, constraints)
models    each distinct model exported and compiled once
plan      points to `socsim run` commands, and their configuration hash
runner    one point's run into its report folder
metrics   a point's metrics from its reports; cost  the area and energy model
db        the SQLite results database
study     one sweep against one results folder; the local backend
slurm     the Slurm backend (sbatch job arrays, squeue, sacct)
report    tables, CSV, Pareto fronts; plots  PNG plots
compare   `socsim compare RUN_A RUN_B`
cli       the `socsim sweep` command line
"""
