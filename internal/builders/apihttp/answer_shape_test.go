package apihttp

import (
	"net/http"
	"strings"
	"testing"
)

// The item count is exact: array elements and object members, nested ones included; brackets,
// commas and escaped quotes inside strings are text, not structure.
func TestAnswerShapeCountsItems(t *testing.T) {
	for body, items := range map[string]int{
		`{}`:                                    0,
		`[]`:                                    0,
		` [ ] `:                                 0,
		`"a,b,[c]"`:                             0,
		`[1]`:                                   1,
		`[1, 2 ,3]`:                             3,
		`{"a":1}`:                               1,
		`{"a":[],"b":{}}`:                       2,
		`[{},{},[]]`:                            3,
		`{"a":[1,2],"b":{"c":"x,y"}}`:           5,
		`["\"],[", "\\", "{"]`:                  3,
		"[\n\t{ \"k\" : [ true , null ] }\r\n]": 4,
	} {
		if got := answerShape([]byte(body), items); got != "" {
			t.Errorf("%s within %d items: %s", body, items, got)
		}
		if items > 0 && answerShape([]byte(body), items-1) == "" {
			t.Errorf("%s holds %d items: not refused at %d", body, items, items-1)
		}
	}
	deep := strings.Repeat("[", MaxAnswerDepth) + strings.Repeat("]", MaxAnswerDepth)
	if got := answerShape([]byte(deep), MaxAnswerItems); got != "" {
		t.Errorf("%d levels: %s", MaxAnswerDepth, got)
	}
	if got := answerShape([]byte("["+deep+"]"), MaxAnswerItems); got != "nests arrays and objects more than 32 deep" {
		t.Errorf("%d levels: %q", MaxAnswerDepth+1, got)
	}
}

// A 2xx answer with more items than its request allows is refused before it is decoded, with an
// error naming the endpoint, the API and the bound; a request may allow more, or fewer.
func TestAnswersAreBoundedInItems(t *testing.T) {
	many := "[" + strings.Repeat("{},", MaxAnswerItems) + "{}]"
	_, base := newScripted(t, answer{body: many, header: http.Header{"Content-Type": {"application/json"}}})
	c, _ := testClient(base, 1)
	var out []struct{ Name string }
	err := c.Do(t.Context(), Request{Method: http.MethodGet, Path: "/templates", Out: &out})
	if err == nil || err.Error() != "test: GET /templates: the answer holds more than 100000 items (array elements and object members): not one the Test API gives" || out != nil {
		t.Errorf("%d items: Do = %v, decoded %d", MaxAnswerItems+1, err, len(out))
	}
	if err := c.Do(t.Context(), Request{Method: http.MethodGet, Path: "/templates", Out: &out, MaxItems: MaxAnswerItems + 1}); err != nil || len(out) != MaxAnswerItems+1 {
		t.Errorf("%d items allowed: Do = %v, decoded %d", MaxAnswerItems+1, err, len(out))
	}
	err = c.Do(t.Context(), Request{Method: http.MethodGet, Path: "/status", Out: &out, MaxItems: 10})
	if err == nil || !strings.Contains(err.Error(), "holds more than 10 items") {
		t.Errorf("a tighter bound: Do = %v", err)
	}

	deep := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	_, base = newScripted(t, answer{body: deep, header: http.Header{"Content-Type": {"application/json"}}})
	c, _ = testClient(base, 1)
	var anything any
	if err := c.Do(t.Context(), Request{Method: http.MethodGet, Path: "/x", Out: &anything}); err == nil ||
		err.Error() != "test: GET /x: the answer nests arrays and objects more than 32 deep: not one the Test API gives" {
		t.Errorf("100 levels: Do = %v", err)
	}
}
