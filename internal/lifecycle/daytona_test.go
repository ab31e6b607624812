package lifecycle

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// daytonaSnapshot is a Daytona snapshot as the emulator's GET /_emulator/snapshots lists it,
// removed ones included. The provider names each by its template and inputs
// (<template_id>:inputs-<fingerprint>); the harness keys builds by the snapshot's id, since a
// failed build's name is used again.
type daytonaSnapshot struct {
	ID      string  `json:"id"`
	Name    string  `json:"name"`
	State   string  `json:"state"`
	Removed bool    `json:"removed"`
	CPU     float64 `json:"cpu"`
	Mem     float64 `json:"mem"`
}

// daytonaInputsMark separates a snapshot name's template id from its inputs' fingerprint.
const daytonaInputsMark = ":inputs-"

func (s daytonaSnapshot) templateID() string {
	id, _, _ := strings.Cut(s.Name, daytonaInputsMark)
	return id
}

// live: the snapshot exists and nobody asked to remove it.
func (s daytonaSnapshot) live() bool { return !s.Removed && s.State != "removing" }

// building: a build (or pull) of the snapshot still runs.
func (s daytonaSnapshot) building() bool {
	return !s.Removed && slices.Contains([]string{"pending", "pulling", "building"}, s.State)
}

// usable: the snapshot is, or will be, one a sandbox can start from without building again (an
// inactive one is activated, one in progress is waited for).
func (s daytonaSnapshot) usable() bool {
	return s.live() && (s.State == "active" || s.State == "inactive" || s.building())
}

// daytonaServed is GET /_emulator/served/{name} of the Daytona emulator: the active snapshot
// named name.
type daytonaServed struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	ImageName  string  `json:"imageName"`
	Dockerfile string  `json:"dockerfile"`
	CPU        float64 `json:"cpu"`
	Mem        float64 `json:"mem"`
}

// daytonaControl is the root of the Daytona emulator's control paths (DAYTONA_API_URL is under /api).
func (e *emulator) daytonaControl() string {
	return strings.TrimSuffix(e.settings["DAYTONA_API_URL"], "/api") + "/_emulator/"
}

func (e *emulator) daytonaSnapshots() ([]daytonaSnapshot, error) {
	var out []daytonaSnapshot
	err := e.call(http.MethodGet, e.daytonaControl()+"snapshots", nil, nil, &out)
	return out, err
}

// daytonaSnapshotsOf lists the live snapshots of template id.
func (e *emulator) daytonaSnapshotsOf(id string) ([]daytonaSnapshot, error) {
	all, err := e.daytonaSnapshots()
	return slices.DeleteFunc(all, func(s daytonaSnapshot) bool { return !s.live() || s.templateID() != id }), err
}

// servedDaytona is the active snapshot named name; nil when there is none.
func (e *emulator) servedDaytona(name string) (*daytonaServed, error) {
	return served[daytonaServed](e, e.daytonaControl()+"served/"+url.PathEscape(name))
}

// deleteDaytona deletes every snapshot of template id with the API, as a user with the API key would.
func (e *emulator) deleteDaytona(id string) error {
	snaps, err := e.daytonaSnapshotsOf(id)
	for _, s := range snaps {
		delErr := e.call(http.MethodDelete, e.settings["DAYTONA_API_URL"]+"/snapshots/"+url.PathEscape(s.ID),
			map[string]string{"Authorization": "Bearer " + e.settings["DAYTONA_API_KEY"]}, nil, nil)
		if delErr != nil && !errors.Is(delErr, errNotFound) {
			err = errors.Join(err, delErr)
		}
	}
	return err
}

// expireDaytona does to each active snapshot of template id what Daytona's cron does to one
// unused for 14 days (inactive), as long ago as the activation cooldown lasts and a minute: the
// provider waits the cooldown out by its own clock, which the emulator's cannot move, so the
// deactivation is moved into the past instead (the days before the next apply).
func (e *emulator) expireDaytona(id string) (expired int, err error) {
	snaps, err := e.daytonaSnapshotsOf(id)
	if err != nil {
		return 0, err
	}
	if err := e.advanceDaytonaClock("-11m"); err != nil {
		return 0, err
	}
	defer func() { err = errors.Join(err, e.advanceDaytonaClock("11m")) }()
	for _, s := range snaps {
		if s.State != "active" {
			continue
		}
		if err := e.call(http.MethodPost, e.daytonaControl()+"snapshots/"+url.PathEscape(s.ID)+"/expire", nil, nil, nil); err != nil {
			return expired, err
		}
		expired++
	}
	return expired, nil
}

func (e *emulator) advanceDaytonaClock(by string) error {
	return e.call(http.MethodPost, e.daytonaControl()+"clock", nil, map[string]string{"advance": by}, nil)
}

// daytonaPollsPerState sets how many reads a Daytona snapshot stays in each state of its build:
// the longer, the slower a build, as build-duration makes E2B's.
func (e *emulator) daytonaPollsPerState(polls int) error {
	return e.call(http.MethodPut, e.daytonaControl()+"settings", nil, map[string]int{"pollsPerState": polls}, nil)
}

// daytonaDifferences compares a Daytona record with the snapshot its template_ref names: it must
// be active, a build of this template (its name starts with the template id), the record's build_id,
// and sized as recorded. It returns the snapshot's id (false when nothing is served).
func (s *sequence) daytonaDifferences(i instance) (string, []string, bool) {
	rec := i.template()
	ref, _ := i.Attributes["template_ref"].(map[string]any)
	name, _ := ref["value"].(string)
	served, err := s.emu.servedDaytona(name)
	if err != nil || served == nil {
		return "", []string{fmt.Sprintf("no active snapshot named %q, the recorded template_ref (%v)", name, err)}, false
	}
	var d differences
	if !strings.HasPrefix(name, rec.TemplateID+daytonaInputsMark) {
		d = append(d, fmt.Sprintf("template_ref %q is no build of %s", name, rec.TemplateID))
	}
	d.compare("build_id", i.Attributes["build_id"], any(name))
	in := rec.inputs()
	d.compare("cpu", served.CPU, float64(in.CPUCount))
	d.compare("memory (GB)", served.Mem, float64(in.MemoryMB/1024))
	if served.ImageName != rec.Image && !strings.Contains(served.Dockerfile, "FROM "+rec.Image) {
		d = append(d, fmt.Sprintf("the snapshot is made from neither image nor Dockerfile FROM %s (image %q)", rec.Image, served.ImageName))
	}
	return served.ID, d, true
}

// supersededLeft lists the active snapshots of a Daytona record's template other than the one
// it records: after a rebuild succeeded, the superseded one is removed (README).
func (s *sequence) supersededLeft(i instance) []string {
	rec := i.template()
	if rec.Backend != backendDaytona {
		return nil
	}
	ref, _ := i.Attributes["template_ref"].(map[string]any)
	snaps, err := s.emu.daytonaSnapshotsOf(rec.TemplateID)
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	for _, sn := range snaps {
		if sn.State == "active" && sn.Name != ref["value"] {
			problems = append(problems, fmt.Sprintf("snapshot %s is active besides the recorded %v", sn.Name, ref["value"]))
		}
	}
	return problems
}
