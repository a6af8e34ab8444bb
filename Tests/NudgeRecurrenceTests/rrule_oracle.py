#!/usr/bin/python3
"""An oracle for Nudge's repeat rules, independent of libical: python3-dateutil's rrule
with the standard library's zoneinfo (Debian's tzdata).

Each input line:  ZONE DTSTART COUNT RRULE [EXDATE=T,T...] [RDATE=T,T...] [AFTER=T]
  DTSTART is a wall-clock time in ZONE (YYYYMMDDTHHMMSS) or a day (YYYYMMDD, all-day);
  COUNT is how many occurrences to print at most; EXDATE and RDATE list wall-clock times in
  ZONE (or days) in DTSTART's form, combined with the rule by dateutil's rruleset; with
  AFTER, a wall-clock time in ZONE, only the occurrences after its instant are printed.
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

from dateutil.rrule import rruleset, rrulestr


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


def with_dates(rule, exdates, rdates):
    """The rule as an rruleset with those EXDATEs and RDATEs; the rule alone without any.
    (The dates compare with the rule's occurrences as wall-clock times: naive ones, or aware
    ones with the same zone object, which Python compares without their offsets.)"""
    if not exdates and not rdates:
        return rule
    dates = rruleset()
    dates.rrule(rule)
    for date in exdates:
        dates.exdate(date)
    for date in rdates:
        dates.rdate(date)
    return dates


def occurrences(zone_name, dtstart_text, count, rule, exdate_texts=(), rdate_texts=(), after_text=None):
    zone = ZoneInfo(zone_name)
    all_day = "T" not in dtstart_text
    form = "%Y%m%d" if all_day else "%Y%m%dT%H%M%S"
    start = datetime.strptime(dtstart_text, form)
    exdates = [datetime.strptime(text, form) for text in exdate_texts]
    rdates = [datetime.strptime(text, form) for text in rdate_texts]
    until_utc = any(part.upper().startswith("UNTIL=") and part.upper().endswith("Z") for part in rule.split(";"))
    if all_day or not until_utc:
        times = with_dates(rrulestr(rule, dtstart=start), exdates, rdates)
    else:
        aware = with_dates(rrulestr(rule, dtstart=start.replace(tzinfo=zone)),
                           [date.replace(tzinfo=zone) for date in exdates], [date.replace(tzinfo=zone) for date in rdates])
        times = (t.replace(tzinfo=None) for t in aware)
    after = utc_instant(datetime.strptime(after_text, "%Y%m%dT%H%M%S"), zone) if after_text else None
    result = []
    for wall in times:
        if len(result) == count:
            break
        if after and utc_instant(wall, zone) <= after:
            continue
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
        zone_name, dtstart_text, count, rule, *more = line.split()
        dates = dict(field.split("=", 1) for field in more)
        exdates = [text for text in dates.get("EXDATE", "").split(",") if text]
        rdates = [text for text in dates.get("RDATE", "").split(",") if text]
        after = dates.get("AFTER")
        print(" ".join(occurrences(zone_name, dtstart_text, int(count), rule, exdates, rdates, after)) or "-", flush=True)


if __name__ == "__main__":
    main()
