package main

import (
	"fmt"
	"path/filepath"
)

// operation is one CLI run of a scale rep.
type operation struct {
	name  string // in the request table and the logs
	label string // in the time table
	args  []string
}

// operations are a scale rep's runs, in order: destroy returns the emulator to empty, so every rep
// starts alike. A second plan must be empty: -detailed-exitcode answers 2 when it is not.
var operations = []operation{
	{"apply", "apply", []string{"apply", "-auto-approve"}},
	{"refresh", "refresh", []string{"apply", "-refresh-only", "-auto-approve"}},
	{"plan", "no-op plan", []string{"plan", "-detailed-exitcode"}},
	{"destroy", "destroy", []string{"destroy", "-auto-approve"}},
}

// scaleKey names one scale measurement's times.
type scaleKey struct {
	kind kind
	n    int
	op   string // operation.name
}

// requestKey names the requests of one operation over n sandbox_template.
type requestKey struct {
	n  int
	op string
}

// scaleRep applies, refreshes, plans and destroys n resources of every kind, once each.
func (b *bench) scaleRep(r *results, n, rep int) error {
	for _, k := range kindsOf(rep) {
		dir := filepath.Join(b.work, fmt.Sprintf("scale-%s-%d-%d", k, n, rep))
		if err := writeConfig(dir, k, fmt.Sprintf("b%d-r%d", n, rep)); err != nil {
			return err
		}
		for _, op := range operations {
			since, err := b.fast.total()
			if err != nil {
				return err
			}
			took, err := b.tf(dir, op.name, b.fast.url, append(op.args, sized(n)...)...)
			if err != nil {
				return err
			}
			st, err := b.fast.stats(since)
			if err != nil {
				return err
			}
			r.addTime(scaleKey{k, n, op.name}, took)
			if k == sandbox && rep == 1 {
				r.setRequests(requestKey{n, op.name}, st.Requests)
			}
		}
	}
	return nil
}
