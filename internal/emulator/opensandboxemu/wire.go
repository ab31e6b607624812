package opensandboxemu

import (
	"time"
)

// The JSON shapes of the lifecycle spec that the emulator writes.

type statusJSON struct {
	State            string `json:"state"`
	Reason           string `json:"reason,omitempty"`
	Message          string `json:"message,omitempty"`
	LastTransitionAt string `json:"lastTransitionAt,omitempty"`
}

type imageJSON struct {
	URI string `json:"uri"`
}

type sandboxJSON struct {
	ID         string            `json:"id"`
	Image      *imageJSON        `json:"image,omitempty"`
	SnapshotID string            `json:"snapshotId,omitempty"`
	Status     statusJSON        `json:"status"`
	Metadata   map[string]string `json:"metadata,omitempty"`
	Entrypoint []string          `json:"entrypoint"`
	ExpiresAt  string            `json:"expiresAt,omitempty"`
	CreatedAt  string            `json:"createdAt"`
}

// createSandboxResponse is CreateSandboxResponse (response_model_exclude_none: expiresAt only
// with a timeout).
type createSandboxResponse struct {
	ID         string            `json:"id"`
	Status     statusJSON        `json:"status"`
	Metadata   map[string]string `json:"metadata,omitempty"`
	ExpiresAt  string            `json:"expiresAt,omitempty"`
	CreatedAt  string            `json:"createdAt"`
	Entrypoint []string          `json:"entrypoint"`
}

type snapshotJSON struct {
	ID        string     `json:"id"`
	SandboxID string     `json:"sandboxId"`
	Name      string     `json:"name,omitempty"`
	Status    statusJSON `json:"status"`
	CreatedAt string     `json:"createdAt"`
}

type paginationJSON struct {
	Page        int  `json:"page"`
	PageSize    int  `json:"pageSize"`
	TotalItems  int  `json:"totalItems"`
	TotalPages  int  `json:"totalPages"`
	HasNextPage bool `json:"hasNextPage"`
}

type listJSON[T any] struct {
	Items      []T            `json:"items"`
	Pagination paginationJSON `json:"pagination"`
}

func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// sandboxView is the GET representation: the image without its credentials, as the real
// server rebuilds it from the container (registry auth is never returned).
func sandboxView(sb *Sandbox) sandboxJSON {
	v := sandboxJSON{
		ID: sb.ID, SnapshotID: sb.SnapshotID, Metadata: sb.Metadata, Entrypoint: sb.Entrypoint,
		Status:    statusJSON{State: sb.State, Reason: sb.Reason, Message: sb.Message, LastTransitionAt: timestamp(sb.CreatedAt)},
		CreatedAt: timestamp(sb.CreatedAt),
	}
	if sb.Image != "" {
		v.Image = &imageJSON{URI: sb.Image}
	}
	if !sb.ExpiresAt.IsZero() {
		v.ExpiresAt = timestamp(sb.ExpiresAt)
	}
	return v
}

func snapshotView(sn *Snapshot) snapshotJSON {
	return snapshotJSON{
		ID: sn.ID, SandboxID: sn.SandboxID, Name: sn.Name, CreatedAt: timestamp(sn.CreatedAt),
		Status: statusJSON{State: sn.State, Reason: sn.Reason, Message: sn.Message, LastTransitionAt: timestamp(sn.CreatedAt)},
	}
}

// page slices items for the page and pageSize query, capping pageSize like the server does.
func page[T any](items []T, pageNum, pageSize, maxPageSize int) listJSON[T] {
	pageSize = min(pageSize, maxPageSize)
	total := len(items)
	totalPages := (total + pageSize - 1) / pageSize
	start := min((pageNum-1)*pageSize, total)
	end := min(start+pageSize, total)
	out := append([]T{}, items[start:end]...)
	return listJSON[T]{Items: out, Pagination: paginationJSON{
		Page: pageNum, PageSize: pageSize, TotalItems: total, TotalPages: totalPages, HasNextPage: pageNum < totalPages,
	}}
}
