"""Where the results go: rows to OUT/extra-rows.tsv (which bench/report.py appends to the
table, echoed on stderr), raw numbers to OUT/service.txt, load averages to OUT/meta.txt."""

import os
import sys


class Report:
    def __init__(self, out):
        self.out = out
        self.details = open(os.path.join(out, "service.txt"), "w")

    def row(self, label, todos, value, peer, target, met):
        """One row of the table: label, todos, value, peer, target, met ("yes" or "no")."""
        with open(os.path.join(self.out, "extra-rows.tsv"), "a") as f:
            f.write("\t".join([label, todos, value, peer, target, met]) + "\n")
        print(f"    {label} | {todos} | {value} | {peer} | {target} | {met}", file=sys.stderr, flush=True)

    def failed(self, part, error):
        self.row(f"service: {part}", "-", f"failed: {error}".replace("\t", " ").replace("|", "/"), "-", "-", "no")

    def detail(self, key, value):
        """One raw number (or a space-separated list of them) for service.txt."""
        self.details.write(f"{key}\t{value}\n")
        self.details.flush()

    def meta(self, key, value):
        with open(os.path.join(self.out, "meta.txt"), "a") as f:
            f.write(f"{key}\t{value}\n")
