// Package dates parses the date forms datafetch reads: ISO-8601 dates and
// date-times (an entity's Date fields) and HTTP dates (a Retry-After
// header), as epoch milliseconds. It takes what time.Parse takes with the
// layouts named below, and gives the same instants (dates_test.go holds it
// to time.Parse), without time's layout engine: that is 50 KB of
// datafetch.wasm.
package dates

// ISO reads s in one of the forms time.Parse reads with these layouts:
// time.RFC3339Nano, "2006-01-02T15:04:05.999999999" (UTC),
// "2006-01-02T15:04" (UTC) and "2006-01-02" (UTC). ok is false for
// anything else, or a field out of range.
func ISO(s string) (ms int64, ok bool) {
	p := scanner{s: s}
	y, mo, d, ok := p.date()
	if !ok {
		return 0, false
	}
	if p.done() {
		return epoch(y, mo, d, 0, 0, 0, 0, 0)
	}
	if !p.byte('T') {
		return 0, false
	}
	h, ok1 := p.upTo2() // time.Parse's "15" takes one digit too
	ok2 := p.byte(':')
	mi, ok3 := p.digits(2)
	if !ok1 || !ok2 || !ok3 {
		return 0, false
	}
	if p.done() {
		return epoch(y, mo, d, h, mi, 0, 0, 0)
	}
	if !p.byte(':') {
		return 0, false
	}
	sec, ok := p.digits(2)
	if !ok {
		return 0, false
	}
	frac := p.fraction()
	if p.done() {
		return epoch(y, mo, d, h, mi, sec, frac, 0)
	}
	off, ok := p.zone()
	if !ok || !p.done() {
		return 0, false
	}
	return epoch(y, mo, d, h, mi, sec, frac, off)
}

// HTTP reads an HTTP date (RFC 9110 5.6.7) in the forms time.Parse reads
// with "Mon, 02 Jan 2006 15:04:05 GMT" (IMF-fixdate), "Monday, 02-Jan-06
// 15:04:05 GMT" (RFC 850; a year from 69 is 19yy) and "Mon Jan _2 15:04:05
// 2006" (asctime). As time.Parse reads them: names are matched without
// regard to case, a space stands for a run of spaces, the hour may have
// one digit, and the day of the week is not checked against the date.
func HTTP(s string) (ms int64, ok bool) {
	for _, form := range []func(*scanner) (y, mo, d, h, mi, sec int, ok bool){imfFixdate, rfc850, asctime} {
		p := scanner{s: s}
		if y, mo, d, h, mi, sec, ok := form(&p); ok && p.done() {
			if ms, ok := epoch(y, mo, d, h, mi, sec, 0, 0); ok {
				return ms, true
			}
		}
	}
	return 0, false
}

func imfFixdate(p *scanner) (y, mo, d, h, mi, sec int, ok bool) {
	ok = p.name(shortDays) >= 0 && p.byte(',') && p.spaces()
	d, ok1 := p.digits(2)
	ok = ok && ok1 && p.spaces()
	mo = p.name(shortMonths) + 1
	ok = ok && mo > 0 && p.spaces()
	y, ok2 := p.digits(4)
	ok = ok && ok2 && p.spaces()
	h, mi, sec, ok3 := p.clock()
	return y, mo, d, h, mi, sec, ok && ok3 && p.spaces() && p.lit("GMT")
}

func rfc850(p *scanner) (y, mo, d, h, mi, sec int, ok bool) {
	ok = p.name(longDays) >= 0 && p.byte(',') && p.spaces()
	d, ok1 := p.digits(2)
	ok = ok && ok1 && p.byte('-')
	mo = p.name(shortMonths) + 1
	ok = ok && mo > 0 && p.byte('-')
	yy, ok2 := p.digits(2)
	y = 2000 + yy
	if yy >= 69 {
		y = 1900 + yy
	}
	ok = ok && ok2 && p.spaces()
	h, mi, sec, ok3 := p.clock()
	return y, mo, d, h, mi, sec, ok && ok3 && p.spaces() && p.lit("GMT")
}

func asctime(p *scanner) (y, mo, d, h, mi, sec int, ok bool) {
	ok = p.name(shortDays) >= 0 && p.spaces()
	mo = p.name(shortMonths) + 1
	// The run of spaces takes "_2"'s padding too.
	ok = ok && mo > 0 && p.spaces()
	d, ok1 := p.upTo2()
	ok = ok && ok1 && p.spaces()
	h, mi, sec, ok2 := p.clock()
	ok = ok && ok2 && p.spaces()
	y, ok3 := p.digits(4)
	return y, mo, d, h, mi, sec, ok && ok3
}

var (
	shortDays   = []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	longDays    = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	shortMonths = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

// scanner reads s from i.
type scanner struct {
	s string
	i int
}

func (p *scanner) done() bool { return p.i == len(p.s) }

func (p *scanner) byte(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// spaces reads a run of one or more spaces.
func (p *scanner) spaces() bool {
	n := p.i
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
	return p.i > n
}

func (p *scanner) lit(l string) bool {
	if len(p.s)-p.i >= len(l) && p.s[p.i:p.i+len(l)] == l {
		p.i += len(l)
		return true
	}
	return false
}

// digits reads exactly n decimal digits.
func (p *scanner) digits(n int) (int, bool) {
	if len(p.s)-p.i < n {
		return 0, false
	}
	v := 0
	for _, c := range []byte(p.s[p.i : p.i+n]) {
		if !isDigit(c) {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	p.i += n
	return v, true
}

// upTo2 reads one or two decimal digits.
func (p *scanner) upTo2() (int, bool) {
	if p.i+1 < len(p.s) && isDigit(p.s[p.i+1]) {
		return p.digits(2)
	}
	return p.digits(1)
}

// name reads one of names, in any case, and returns its index (-1: none).
func (p *scanner) name(names []string) int {
	for k, n := range names {
		if len(p.s)-p.i >= len(n) && equalFold(p.s[p.i:p.i+len(n)], n) {
			p.i += len(n)
			return k
		}
	}
	return -1
}

// date reads YYYY-MM-DD.
func (p *scanner) date() (y, mo, d int, ok bool) {
	y, ok1 := p.digits(4)
	ok2 := p.byte('-')
	mo, ok3 := p.digits(2)
	ok4 := p.byte('-')
	d, ok5 := p.digits(2)
	return y, mo, d, ok1 && ok2 && ok3 && ok4 && ok5
}

// clock reads h:mm:ss or hh:mm:ss.
func (p *scanner) clock() (h, mi, sec int, ok bool) {
	h, ok1 := p.upTo2()
	ok2 := p.byte(':')
	mi, ok3 := p.digits(2)
	ok4 := p.byte(':')
	sec, ok5 := p.digits(2)
	return h, mi, sec, ok1 && ok2 && ok3 && ok4 && ok5
}

// fraction reads an optional fraction of a second ('.' or ',' then
// digits, any number of them) and returns its milliseconds, truncated.
func (p *scanner) fraction() int {
	if p.i+1 >= len(p.s) || (p.s[p.i] != '.' && p.s[p.i] != ',') || !isDigit(p.s[p.i+1]) {
		return 0
	}
	p.i++
	ms, n := 0, 0
	for ; p.i < len(p.s) && isDigit(p.s[p.i]); p.i++ {
		if n < 3 {
			ms = ms*10 + int(p.s[p.i]-'0')
		}
		n++
	}
	for ; n < 3; n++ {
		ms *= 10
	}
	return ms
}

// zone reads "Z" or ±hh:mm and returns the offset east of UTC, in
// minutes.
func (p *scanner) zone() (int, bool) {
	if p.byte('Z') {
		return 0, true
	}
	sign := 1
	switch {
	case p.byte('+'):
	case p.byte('-'):
		sign = -1
	default:
		return 0, false
	}
	h, ok1 := p.digits(2)
	ok2 := p.byte(':')
	m, ok3 := p.digits(2)
	// time.Parse's bounds, not a clock's.
	if !ok1 || !ok2 || !ok3 || h > 24 || m > 60 {
		return 0, false
	}
	return sign * (h*60 + m), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// equalFold compares ASCII strings without regard to the case of letters.
func equalFold(a, b string) bool {
	for i := 0; i < len(a); i++ {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// epoch returns the epoch milliseconds of a date and time at a zone
// offset (minutes east of UTC), or ok false for a field out of range.
func epoch(y, mo, d, h, mi, sec, ms, offMinutes int) (int64, bool) {
	if mo < 1 || mo > 12 || d < 1 || d > daysIn(mo, y) || h > 23 || mi > 59 || sec > 59 {
		return 0, false
	}
	days := daysFromCivil(int64(y), int64(mo), int64(d))
	secs := days*86400 + int64(h*3600+mi*60+sec) - int64(offMinutes)*60
	return secs*1000 + int64(ms), true
}

func daysIn(mo, y int) int {
	switch mo {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil returns the days since 1970-01-01 of a proleptic
// Gregorian date (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}
