package cmodel

import "regexp"

// Strto is the model of the C library's conversions of decimal strings
// to integers (C11 7.22.1.2 atoi, atol, atoll; 7.22.1.4 strtol,
// strtoll, strtoul, strtoull with base 10), as glibc computes them in
// the "C" locale (stdlib/strtol_l.c): white space (' ', '\t' … '\r') is
// skipped, then an optional sign, then the longest run of decimal
// digits; without a digit the result is 0 and *endptr is nptr, else
// *endptr points after the last digit. A magnitude beyond the type's
// range (the unsigned type's, and for the signed conversions the
// positive or negative limit) yields the limit of the sign (LONG_MAX or
// LONG_MIN; ULONG_MAX for the unsigned ones, whatever the sign), where
// glibc also sets errno to ERANGE; an unsigned conversion of a negative
// number is the negated magnitude, modulo 2^N. atoi and atol are glibc's
// (int) strtol (s, NULL, 10), atoll strtoll (s, NULL, 10): atoi of a
// number beyond int's range is the long result's low bits.
//
// errno is not written: glibc's errno macro reads *__errno_location (),
// a call of a function without a body, so every read of errno is an
// unknown value already (the models of the input functions, which glibc
// lets set errno on a read error, do not write it either). A store
// through that pointer would make every object whose address escapes
// unknown on the paths of an overflow.
//
// Another base is an unmodelled call (__reverify_strto*_base, without a
// body): glibc's base 0 and 16 read prefixes, and newer glibc versions
// "0b" too. A program that calls setlocale does not get the model (a
// locale may add white space).
//
// The unit also holds the helpers of sscanf's model (cfa.EmitSscanf,
// for a format of decimal conversions), so a call of sscanf needs it
// too: __reverify_sscanf_num performs one conversion as glibc's vfscanf
// does (white space skipped; the end of the string first is an input
// failure, -1; no digit after an optional sign a matching failure, 0;
// else the digits are converted by the strto function kind names, 1).
var Strto = newUnit("<strto>", strtoSource,
	[]string{"atoi", "atol", "atoll", "strtol", "strtoll", "strtoul", "strtoull"},
	callsSscanf, setlocaleRE.MatchString)

var (
	setlocaleRE = regexp.MustCompile(`\bsetlocale\b`)
	sscanfRE    = regexp.MustCompile(`\bsscanf\s*\(`)
	sscanfNames = map[string]bool{"sscanf": true}
)

func callsSscanf(src string) bool { return sscanfRE.MatchString(src) && Calls(src, sscanfNames) }

// strtoSource is the translation unit of the model. The digits' loop
// accumulates in unsigned long long whatever the type: max is the
// type's unsigned limit.
const strtoSource = `long __reverify_strtol_base(const char *, char **, int);
long long __reverify_strtoll_base(const char *, char **, int);
unsigned long __reverify_strtoul_base(const char *, char **, int);
unsigned long long __reverify_strtoull_base(const char *, char **, int);
int __reverify_strto_neg, __reverify_strto_ovf;

unsigned long long __reverify_strto_digits(const char *nptr, char **endptr, unsigned long long max)
{
	const char *s = nptr;
	unsigned long long acc = 0;
	__reverify_strto_neg = 0;
	__reverify_strto_ovf = 0;
	while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
		s++;
	if (*s == '-') {
		__reverify_strto_neg = 1;
		s++;
	} else if (*s == '+')
		s++;
	if (*s < '0' || *s > '9') {
		if (endptr)
			*endptr = (char *)nptr;
		return 0;
	}
	while (*s >= '0' && *s <= '9') {
		unsigned d = *s - '0';
		if (acc > max / 10 || (acc == max / 10 && d > max % 10))
			__reverify_strto_ovf = 1;
		else
			acc = acc * 10 + d;
		s++;
	}
	if (endptr)
		*endptr = (char *)s;
	return acc;
}

long strtol(const char *nptr, char **endptr, int base)
{
	unsigned long max = (unsigned long)-1 >> 1, a;
	if (base != 10)
		return __reverify_strtol_base(nptr, endptr, base);
	a = __reverify_strto_digits(nptr, endptr, (unsigned long)-1);
	if (__reverify_strto_ovf || a > max + __reverify_strto_neg) {
		return __reverify_strto_neg ? -(long)max - 1 : (long)max;
	}
	return __reverify_strto_neg ? (long)-a : (long)a;
}

long long strtoll(const char *nptr, char **endptr, int base)
{
	unsigned long long max = (unsigned long long)-1 >> 1, a;
	if (base != 10)
		return __reverify_strtoll_base(nptr, endptr, base);
	a = __reverify_strto_digits(nptr, endptr, (unsigned long long)-1);
	if (__reverify_strto_ovf || a > max + __reverify_strto_neg) {
		return __reverify_strto_neg ? -(long long)max - 1 : (long long)max;
	}
	return __reverify_strto_neg ? (long long)-a : (long long)a;
}

unsigned long strtoul(const char *nptr, char **endptr, int base)
{
	unsigned long a;
	if (base != 10)
		return __reverify_strtoul_base(nptr, endptr, base);
	a = __reverify_strto_digits(nptr, endptr, (unsigned long)-1);
	if (__reverify_strto_ovf) {
		return (unsigned long)-1;
	}
	return __reverify_strto_neg ? -a : a;
}

unsigned long long strtoull(const char *nptr, char **endptr, int base)
{
	unsigned long long a;
	if (base != 10)
		return __reverify_strtoull_base(nptr, endptr, base);
	a = __reverify_strto_digits(nptr, endptr, (unsigned long long)-1);
	if (__reverify_strto_ovf) {
		return (unsigned long long)-1;
	}
	return __reverify_strto_neg ? -a : a;
}

int atoi(const char *nptr)
{
	return (int)strtol(nptr, (char **)0, 10);
}

long atol(const char *nptr)
{
	return strtol(nptr, (char **)0, 10);
}

long long atoll(const char *nptr)
{
	return strtoll(nptr, (char **)0, 10);
}

const char *__reverify_sscanf_pos;
unsigned long long __reverify_sscanf_val;

void __reverify_sscanf_begin(const char *s)
{
	__reverify_sscanf_pos = s;
}

int __reverify_sscanf_num(int kind)
{
	const char *s = __reverify_sscanf_pos, *start;
	while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
		s++;
	if (*s == 0)
		return -1;
	start = s;
	if (*s == '-' || *s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return 0;
	while (*s >= '0' && *s <= '9')
		s++;
	__reverify_sscanf_pos = s;
	if (kind == 0)
		__reverify_sscanf_val = strtol(start, (char **)0, 10);
	else if (kind == 1)
		__reverify_sscanf_val = strtoll(start, (char **)0, 10);
	else if (kind == 2)
		__reverify_sscanf_val = strtoul(start, (char **)0, 10);
	else
		__reverify_sscanf_val = strtoull(start, (char **)0, 10);
	return 1;
}

unsigned long long __reverify_sscanf_value(void)
{
	return __reverify_sscanf_val;
}
`
