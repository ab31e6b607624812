package builders

import (
	"io"
	"os"
)

// Spool writes what write produces to a temporary file and returns it rewound, with its size, so
// an upload carries an exact Content-Length (storage buckets refuse chunked uploads:
// e2b-dev/E2B#1243) without holding the files in memory. done closes and removes the file.
func Spool(pattern string, write func(io.Writer) error) (file *os.File, size int64, done func(), err error) {
	file, err = os.CreateTemp("", pattern)
	if err != nil {
		return nil, 0, nil, err
	}
	done = func() { _ = file.Close(); _ = os.Remove(file.Name()) }
	if err = write(file); err == nil {
		if size, err = file.Seek(0, io.SeekCurrent); err == nil {
			_, err = file.Seek(0, io.SeekStart)
		}
	}
	if err != nil {
		done()
		return nil, 0, nil, err
	}
	return file, size, done, nil
}
