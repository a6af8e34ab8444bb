#!/usr/bin/python3
"""An oracle for Nudge's repeat rules, independent of libical: python3-dateutil's rrule
with the standard library's zoneinfo (Debian's tzdata).

Each input line:  ZONE DTSTART COUNT RRULE
  DTSTART is a wall-clock time in ZONE (YYYYMMDDTHHMMSS) or a day (YYYYMMDD, all-day);
  COUNT is how many occurrences to print at most.
Each output line: those occurrences, space-separated, as UTC instants (YYYY-MM-DDTHH:MM:SSZ)
or, for an all-day series, as days (YYYY-MM-DD); "-" when there are none.

RFC 5545 semantics, and how they come out of dateutil and zoneinfo:
  - A wall-clock time in a DST gap is read with the offset before the gap (02:30 in Berlin
    on the spring-forward day is 03:30 CEST). dateutil yields such a time with fold=0, which
    zoneinfo (PEP 495) reads with the offset before the gap: the same instant. It is checked
    below rather than trusted.
  - A wall-clock time that happens twice is the first of the two: fold=0 again.
  - An UNTIL in UTC ("...Z") is an instant: dateutil compares it with each occurrence's
    instant when DTSTART carries a zone.
  - A floating UNTIL (no "Z") is compared as wall-clock time, as Nudge does; dateutil refuses
    it with a zoned DTSTART, so such rules are expanded on floating times and placed after.
  - Two wall-clock occurrences that land on one instant (an hourly 02:00 moved by a gap onto
    03:00) are one occurrence: RFC 5545 counts a duplicate instance once.
"""
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr


def utc_instant(wall, zone):
    """The instant of a wall-clock time in zone, by RFC 5545's rules."""
    instant = wall.replace(tzinfo=zone, fold=0).astimezone(timezone.utc)
    back = instant.astimezone(zone).replace(tzinfo=None)
    if back != wall:
        # A gap: the RFC reads the time with the offset before the gap.
        before = zone.utcoffset(wall - timedelta(days=1))
        expected = (wall - before).replace(tzinfo=timezone.utc)
        if instant != expected:
            raise SystemExit(f"unexpected gap handling for {wall} in {zone}: {instant}, not {expected}")
    return instant


def occurrences(zone_name, dtstart_text, count, rule):
    zone = ZoneInfo(zone_name)
    all_day = "T" not in dtstart_text
    start = datetime.strptime(dtstart_text, "%Y%m%d" if all_day else "%Y%m%dT%H%M%S")
    until_utc = any(part.upper().startswith("UNTIL=") and part.upper().endswith("Z") for part in rule.split(";"))
    if all_day or not until_utc:
        times = rrulestr(rule, dtstart=start)
    else:
        times = (t.replace(tzinfo=None) for t in rrulestr(rule, dtstart=start.replace(tzinfo=zone)))
    result = []
    for wall in times:
        if len(result) == count:
            break
        if all_day:
            text = wall.strftime("%Y-%m-%d")
        else:
            text = utc_instant(wall, zone).strftime("%Y-%m-%dT%H:%M:%SZ")
        if not result or result[-1] != text:
            result.append(text)
    return result


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        zone_name, dtstart_text, count, rule = line.split()
        print(" ".join(occurrences(zone_name, dtstart_text, int(count), rule)) or "-", flush=True)


if __name__ == "__main__":
    main()
