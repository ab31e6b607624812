package opensandbox

import (
	"io"
	"strings"
	"testing"
)

// A file that grew or shrank since its size was announced ends the upload with an error naming
// it, not a body of another length than the one sent as Content-Length.
func TestFileOfAnotherSizeThanAnnounced(t *testing.T) {
	for _, content := range []string{"1234", "123456"} {
		_, err := io.ReadAll(&exactly{r: strings.NewReader(content), left: 5, name: "app/data.bin"})
		if err == nil || err.Error() != "app/data.bin changed while it was read" {
			t.Errorf("%d bytes where 5 were announced: %v", len(content), err)
		}
	}
	if got, err := io.ReadAll(&exactly{r: strings.NewReader("12345"), left: 5, name: "x"}); err != nil || string(got) != "12345" {
		t.Errorf("the announced size: %q, %v", got, err)
	}
}
