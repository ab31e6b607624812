package builders

// Observer hears what a build does while it runs. Its functions must be quick and safe for
// concurrent use; either may be nil.
type Observer struct {
	// OnCreated is called as soon as the remote template exists, before its build finished: the
	// caller persists it there, so a failed or interrupted wait never orphans the template.
	OnCreated func(TemplateRef)
	// OnProgress hears each step worth showing: stage changes, waits and build-log lines.
	OnProgress func(line string)
}

// Created reports that the remote template exists.
func (o Observer) Created(ref TemplateRef) {
	if o.OnCreated != nil {
		o.OnCreated(ref)
	}
}

// Progress reports one line of progress.
func (o Observer) Progress(line string) {
	if o.OnProgress != nil {
		o.OnProgress(line)
	}
}
