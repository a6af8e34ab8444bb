"""The reminder-service benchmarks run by bench/service.

desktop.py starts the session nudged runs in (bus, X server, dunst); nudged.py starts nudged
and reads its events; harness.py gives each row its folder, database and nudged; rows/ has one
module per part (each adds its rows); report.py writes the rows and the raw numbers.
"""
