package apihttp

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"3", 3 * time.Second, true},
		{now.Add(10 * time.Second).Format(http.TimeFormat), 10 * time.Second, true},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0, true},
		{"", 0, false},
		{"soon", 0, false},
		{"-1", 0, false},
		{"9227000000", 24 * time.Hour, true}, // overflowed time.Duration into a negative, immediate retry
		{now.AddDate(1000, 0, 0).Format(http.TimeFormat), 24 * time.Hour, true},
	} {
		if got, ok := ParseRetryAfter(tt.in, now); got != tt.want || ok != tt.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzParseRetryAfter: any header value gives a non-negative delay or none.
func FuzzParseRetryAfter(f *testing.F) {
	for _, seed := range []string{"", "0", "1", "120", "-1", "Wed, 21 Oct 2015 07:28:00 GMT", "soon", "99999999999999999999", "9227000000"} {
		f.Add(seed)
	}
	now := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		if d, ok := ParseRetryAfter(v, now); ok && d < 0 {
			t.Fatalf("ParseRetryAfter(%q) = %v, a negative delay", v, d)
		}
	})
}

func TestSleepEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("Sleep on a cancelled context = %v, want context.Canceled", err)
	}
	if err := Sleep(context.Background(), 0); err != nil {
		t.Fatalf("Sleep(0) = %v", err)
	}
}
