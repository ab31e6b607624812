package daytona

// TemplateOf is the template id a snapshot name builds (<template_id>:inputs-<fingerprint>), ""
// when the name is not one a build here gives: the provider tells a snapshot it can adopt by name
// (its inputs are in its name) from one another tool made, such as a moved daytona_snapshot.
func TemplateOf(snapshotName string) string { return templateOf(snapshotName) }
