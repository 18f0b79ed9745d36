"""Judges held to labels: labelled sets written by people, a run of a benchmark's judges on their answers,
the judges' agreement with the labels, and the gate that refuses a run whose judges agree too little.

- `labels.py`: a labelled set (calibration/*.yaml), read strictly;
- `agent.py`: the "system under test" of a calibration run: it answers each task with a labelled answer;
- `measure.py`: agreement with the labels (pure): exact, Cohen's kappa, quadratic kappa, confusion
  matrix, mean bias, each with a bootstrap interval;
- `records.py`: the calibration a run was judged under, found, checked against `--min-judge-agreement`,
  and recorded.
"""
