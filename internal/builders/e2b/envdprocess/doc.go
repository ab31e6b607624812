// Package envdprocess is envd's process service (process.Process, Connect RPC): the messages and,
// in processconnect, the client and handler, as generated in e2b-dev/infra (packages/envd), whose
// copy is internal there. The provider starts a check's commands with it (Start, as the SDK's
// commands.run does); the E2B emulator serves it.
package envdprocess
