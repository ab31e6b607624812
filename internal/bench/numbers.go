package main

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// median of values (the mean of the middle two for an even count), NaN for none.
func median(values []float64) float64 {
	if len(values) == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(values))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// ratio is a / b, NaN when b is zero.
func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}

// f2 prints v with two decimals, "n/a" for NaN (a measurement that was not possible).
func f2(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// list prints values with two decimals, comma-separated.
func list(values []float64) string {
	s := make([]string, len(values))
	for i, v := range values {
		s[i] = f2(v)
	}
	return strings.Join(s, ", ")
}

// shortest prints v as briefly as it is exact: 6, 1.5.
func shortest(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// goal is "met" when v is at most g, "**missed**" otherwise (a missing measurement included).
func goal(v, g float64) string {
	if !math.IsNaN(v) && v <= g {
		return "met"
	}
	return "**missed**"
}
