package pdg

import (
	"fmt"
	"testing"
)

func TestDbgIface(t *testing.T) {
	p := structuredProgram(t, 2, 30, 100, 50)
	g := Build(p)
	for i, fi := range g.funcs {
		if i % 5 != 1 { continue }
		kinds := map[string]int{}
		for _, sn := range fi.formIn {
			if sn.slot.Kind == SlotObject {
				o := g.objs[sn.slot.Index]
				k := o.Kind.String()
				if o.Kind == ObjVar {
					if o.Var.Global { k = "global" } else { k = "local" }
				}
				kinds[k]++
			}
		}
		fmt.Println(fi.f.Name, len(fi.formIn), len(fi.formOut), len(fi.sites), kinds)
	}
}
