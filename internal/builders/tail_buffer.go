package builders

// TailBuffer is an io.Writer that keeps only the last Max bytes written to it, so a command that
// prints without end costs bounded memory.
type TailBuffer struct {
	Max  int
	data []byte
}

// Write keeps the tail of what was written so far; it never fails.
func (t *TailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= t.Max {
		t.data = append(t.data[:0], p[len(p)-t.Max:]...)
		return n, nil
	}
	if over := len(t.data) + len(p) - t.Max; over > 0 {
		t.data = append(t.data[:0], t.data[over:]...)
	}
	t.data = append(t.data, p...)
	return n, nil
}

// Bytes are the kept tail.
func (t *TailBuffer) Bytes() []byte { return t.data }
