package bmc

import "github.com/reverify/reverify/engine/cfa"

// loops holds, for every function, the back edges of a depth-first
// search from its entry and the natural loop of each loop head (the head
// and every location that reaches a back edge's source without passing
// the head; Aho, Sethi, Ullman, "Compilers", section 10.4).
type loops struct {
	back map[*cfa.Edge]bool
	body map[*cfa.Location]map[*cfa.Location]bool
}

func findLoops(p *cfa.Program) *loops {
	l := &loops{back: map[*cfa.Edge]bool{}, body: map[*cfa.Location]map[*cfa.Location]bool{}}
	for _, f := range p.Funcs {
		l.function(f)
	}
	l.function(p.Init)
	return l
}

func (l *loops) function(f *cfa.Function) {
	if f == nil || f.Entry == nil {
		return
	}
	const (
		white = iota
		grey
		black
	)
	color := map[*cfa.Location]int{}
	type item struct {
		loc *cfa.Location
		i   int
	}
	stack := []item{{f.Entry, 0}}
	color[f.Entry] = grey
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i == len(top.loc.Out) {
			color[top.loc] = black
			stack = stack[:len(stack)-1]
			continue
		}
		e := top.loc.Out[top.i]
		top.i++
		switch color[e.To] {
		case white:
			color[e.To] = grey
			stack = append(stack, item{e.To, 0})
		case grey:
			l.back[e] = true
			l.addBody(e)
		}
	}
}

// addBody adds the natural loop of the back edge e to its head's body.
func (l *loops) addBody(e *cfa.Edge) {
	h := e.To
	body := l.body[h]
	if body == nil {
		body = map[*cfa.Location]bool{h: true}
		l.body[h] = body
	}
	work := []*cfa.Location{e.From}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if body[n] {
			continue
		}
		body[n] = true
		for _, in := range n.In {
			work = append(work, in.From)
		}
	}
}
