package difftest

import (
	"fmt"
	"strconv"
	"strings"
)

// Format returns the case as a regression input: header lines
// ("# key: value", with the configuration, data model and, for a known
// failure, the issue it belongs to) and txtar-like sections prog.c,
// benign.c, adversarial.c and inputs (one vector per line, "-" for none).
func (c *Case) Format(header map[string]string) string {
	var b strings.Builder
	for _, k := range []string{"config", "data-model", "known", "problem"} {
		if v, ok := header[k]; ok {
			fmt.Fprintf(&b, "# %s: %s\n", k, v)
		}
	}
	section := func(name, text string) {
		if text == "" {
			return
		}
		fmt.Fprintf(&b, "-- %s --\n%s", name, text)
		if !strings.HasSuffix(text, "\n") {
			b.WriteString("\n")
		}
	}
	section("prog.c", c.Source)
	section("benign.c", c.Benign)
	section("adversarial.c", c.Adversarial)
	var in strings.Builder
	for _, v := range c.Inputs {
		var s []string
		for _, x := range v {
			s = append(s, strconv.FormatInt(x, 10))
		}
		if len(s) == 0 {
			s = []string{"-"} // a run without inputs
		}
		in.WriteString(strings.Join(s, " ") + "\n")
	}
	section("inputs", in.String())
	return b.String()
}

// ParseCase reads what Format writes: the case and its header. An
// inputs line "-" is a run without inputs; without an inputs section the
// case has one such run.
func ParseCase(name, text string) (*Case, map[string]string, error) {
	c := &Case{Name: name}
	header := map[string]string{}
	sections := map[string]*strings.Builder{}
	var cur *strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		t := strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --"):
			cur = &strings.Builder{}
			sections[strings.TrimSuffix(strings.TrimPrefix(t, "-- "), " --")] = cur
		case cur != nil:
			cur.WriteString(line)
		case strings.HasPrefix(t, "# "):
			k, v, ok := strings.Cut(strings.TrimPrefix(t, "# "), ": ")
			if !ok {
				return nil, nil, fmt.Errorf("%s: bad header line %q", name, t)
			}
			header[k] = v
		case strings.TrimSpace(t) != "":
			return nil, nil, fmt.Errorf("%s: text before the first section: %q", name, t)
		}
	}
	get := func(k string) string {
		if s := sections[k]; s != nil {
			return s.String()
		}
		return ""
	}
	c.Source, c.Benign, c.Adversarial = get("prog.c"), get("benign.c"), get("adversarial.c")
	if c.Source == "" {
		return nil, nil, fmt.Errorf("%s: no prog.c section", name)
	}
	in := strings.TrimRight(get("inputs"), "\n")
	if in == "" {
		in = "-"
	}
	for _, line := range strings.Split(in, "\n") {
		var v []int64
		for _, f := range strings.Fields(line) {
			if f == "-" {
				continue
			}
			x, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: inputs: %v", name, err)
			}
			v = append(v, x)
		}
		c.Inputs = append(c.Inputs, v)
	}
	return c, header, nil
}
