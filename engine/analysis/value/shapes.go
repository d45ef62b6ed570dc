package value

import (
	"fmt"
	"sort"
)

func (c *CPA) noteShape(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.shapeNotes == nil {
		c.shapeNotes = map[string]bool{}
	}
	c.shapeNotes[s] = true
}

// siteName is the source position of allocation site (a Call edge ID),
// "file:line".
func (c *CPA) siteName(site int) string {
	if site >= 0 && site < len(c.prog.Edges) && c.prog.Edges[site] != nil {
		p := c.prog.Edges[site].Pos.Start
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("allocation site %d", site)
}

// ShapeNotes returns, sorted, the heap shapes that list abstraction met
// at loop heads so far and could not fold ("heap shape not abstracted:
// tree of blocks allocated at f.c:12"): why an exploration of such a
// heap may not converge. They explain an UNKNOWN (a timeout or a state
// limit); they do not affect any verdict.
func (c *CPA) ShapeNotes() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.shapeNotes))
	for s := range c.shapeNotes {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
