// Package bedrock is the Amazon Bedrock AgentCore Code Interpreter backend. AgentCore has no custom
// templates (no API takes an image, packages or sizing), so this builder never builds: it reports
// UNSUPPORTED, and Ensure's fast path reports SKIPPED when the named code interpreter is READY.
// Code interpreters are created and deleted elsewhere (aws_bedrockagentcore_code_interpreter), so
// the builder is deliberately not a builders.Deleter.
package bedrock
