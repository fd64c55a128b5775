package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// rule is a POSIX TZ string such as "EST5EDT,M3.2.0,M11.1.0": a standard
// offset, and optionally a daylight one with the local times it starts and
// ends each year. abi/intl.js evaluates the same strings the same way.
type rule struct {
	std, dstOff int // seconds east of UTC
	dst         bool
	start, end  date
}

// date is "Mm.w.d", "Jn" or "n", with a local time in seconds.
type date struct {
	kind    byte // 'M', 'J' or 'n'
	m, w, d int
	secs    int
}

type transition struct {
	at  int64
	off int
}

func parseRule(s string) (rule, error) {
	p := &posix{s: s}
	var r rule
	p.name()
	std, ok := p.offset()
	if !ok {
		return r, fmt.Errorf("rule %q: no standard offset", s)
	}
	r.std = -std
	if p.i == len(s) {
		return r, nil
	}
	r.dst = true
	p.name()
	r.dstOff = r.std + 3600
	if p.i < len(s) && s[p.i] != ',' {
		o, ok := p.offset()
		if !ok {
			return r, fmt.Errorf("rule %q: bad daylight offset", s)
		}
		r.dstOff = -o
	}
	var err error
	if r.start, err = p.date(); err != nil {
		return r, err
	}
	if r.end, err = p.date(); err != nil {
		return r, err
	}
	if p.i != len(s) {
		return r, fmt.Errorf("rule %q: trailing text", s)
	}
	return r, nil
}

type posix struct {
	s string
	i int
}

func (p *posix) name() {
	if p.i < len(p.s) && p.s[p.i] == '<' {
		p.i = strings.IndexByte(p.s[p.i:], '>') + p.i + 1
		return
	}
	for p.i < len(p.s) && (p.s[p.i] >= 'A' && p.s[p.i] <= 'Z' || p.s[p.i] >= 'a' && p.s[p.i] <= 'z') {
		p.i++
	}
}

// offset reads [+-]hh[:mm[:ss]] as seconds (positive west, as POSIX has it).
func (p *posix) offset() (int, bool) {
	sign := 1
	if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
		if p.s[p.i] == '-' {
			sign = -1
		}
		p.i++
	}
	secs, mult, any := 0, 3600, false
	for part := 0; part < 3; part++ {
		j := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		if j == p.i {
			break
		}
		n, _ := strconv.Atoi(p.s[j:p.i])
		secs += n * mult
		mult /= 60
		any = true
		if p.i < len(p.s) && p.s[p.i] == ':' {
			p.i++
		} else {
			break
		}
	}
	return sign * secs, any
}

func (p *posix) date() (date, error) {
	var d date
	if p.i >= len(p.s) || p.s[p.i] != ',' {
		return d, fmt.Errorf("rule %q: missing date", p.s)
	}
	p.i++
	d.secs = 7200
	num := func() int {
		j := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		n, _ := strconv.Atoi(p.s[j:p.i])
		return n
	}
	switch {
	case p.i < len(p.s) && p.s[p.i] == 'M':
		p.i++
		d.kind = 'M'
		d.m = num()
		p.i++
		d.w = num()
		p.i++
		d.d = num()
	case p.i < len(p.s) && p.s[p.i] == 'J':
		p.i++
		d.kind = 'J'
		d.d = num()
	default:
		d.kind = 'n'
		d.d = num()
	}
	if p.i < len(p.s) && p.s[p.i] == '/' {
		p.i++
		o, ok := p.offset()
		if !ok {
			return d, fmt.Errorf("rule %q: bad time", p.s)
		}
		d.secs = o
	}
	return d, nil
}

// local is the date's local midnight of year, in seconds since the epoch.
func (d date) local(year int) int64 {
	var t time.Time
	switch d.kind {
	case 'J': // 1..365, never counting 29 February
		t = time.Date(year, 1, d.d, 0, 0, 0, 0, time.UTC)
		if isLeap(year) && d.d >= 60 {
			t = t.AddDate(0, 0, 1)
		}
	case 'n': // 0..365
		t = time.Date(year, 1, 1+d.d, 0, 0, 0, 0, time.UTC)
	default: // week w (5 = last) of month m, weekday d
		first := time.Date(year, time.Month(d.m), 1, 0, 0, 0, 0, time.UTC)
		day := 1 + (d.d-int(first.Weekday())+7)%7 + (d.w-1)*7
		for day > daysIn(year, d.m) {
			day -= 7
		}
		t = time.Date(year, time.Month(d.m), day, 0, 0, 0, 0, time.UTC)
	}
	return t.Unix() + int64(d.secs)
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func daysIn(y, m int) int { return time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day() }

// transitions are the rule's offset changes of one year, in order.
func (r rule) transitions(year int) []transition {
	if !r.dst {
		return nil
	}
	ts := []transition{{r.start.local(year) - int64(r.std), r.dstOff}, {r.end.local(year) - int64(r.dstOff), r.std}}
	sort.Slice(ts, func(i, j int) bool { return ts[i].at < ts[j].at })
	return ts
}

func (r rule) offsetAt(t int64) int {
	if !r.dst {
		return r.std
	}
	y := time.Unix(t, 0).UTC().Year()
	off := r.std
	var all []transition
	for yy := y - 1; yy <= y+1; yy++ {
		all = append(all, r.transitions(yy)...)
	}
	for _, c := range all {
		if c.at <= t {
			off = c.off
		}
	}
	return off
}
