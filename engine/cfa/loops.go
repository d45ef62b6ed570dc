package cfa

// Loops are the natural loops of a program's functions: the back edges of
// a depth-first search from each function's entry (successors in edge
// order) and, per loop head, its natural loop: the head and every
// location that reaches a back edge's source without passing the head
// (Aho, Sethi, Ullman, "Compilers", section 10.4). Bounded model checking
// counts iterations by them (engine/bmc) and the strategy selection reads
// loop shapes from them (engine/features).
type Loops struct {
	// Back holds the back edges.
	Back map[*Edge]bool
	// Body maps each loop head to the locations of its natural loop
	// (the union over the head's back edges), the head included.
	Body map[*Location]map[*Location]bool
}

// NaturalLoops returns the natural loops of every function of p and of
// its initialiser function.
func NaturalLoops(p *Program) *Loops {
	l := &Loops{Back: map[*Edge]bool{}, Body: map[*Location]map[*Location]bool{}}
	for _, f := range p.Funcs {
		l.function(f)
	}
	l.function(p.Init)
	return l
}

func (l *Loops) function(f *Function) {
	if f == nil || f.Entry == nil {
		return
	}
	const (
		white = iota
		grey
		black
	)
	color := map[*Location]int{}
	type item struct {
		loc *Location
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
			l.Back[e] = true
			l.addBody(e)
		}
	}
}

// addBody adds the natural loop of the back edge e to its head's body.
func (l *Loops) addBody(e *Edge) {
	h := e.To
	body := l.Body[h]
	if body == nil {
		body = map[*Location]bool{h: true}
		l.Body[h] = body
	}
	work := []*Location{e.From}
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
