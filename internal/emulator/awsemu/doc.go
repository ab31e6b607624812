// Package awsemu is an in-process fake of the AWS APIs this provider calls, speaking their real
// wire protocols so the real aws-sdk-go-v2 clients can talk to it:
//
//   - ECR (awsJson1_1): POST / with X-Amz-Target AmazonEC2ContainerRegistry_V20150921.GetAuthorizationToken;
//   - Bedrock AgentCore control (restJson1): GET /code-interpreters/{codeInterpreterId};
//   - Bedrock AgentCore data plane (restJson1, on DataPlaneURL): StartCodeInterpreterSession,
//     InvokeCodeInterpreter (the executeCommand tool, answered as an AWS event stream) and
//     StopCodeInterpreterSession; commands run in sandboxos's model of the code interpreter's
//     image (agentcore_invoke.go).
//
// Every request must carry a SigV4 Authorization header. Once SetCredentials is called the emulator
// checks it as AWS does (sigv4.go): the access key id, host among the signed headers, the signing
// time within 15 minutes of the real clock, a credential scope for the API's service ("ecr",
// "bedrock-agentcore") and Options.Region, and the signature over the signed headers and the body
// received. Point the SDK at it with AWS_ENDPOINT_URL_ECR, AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL
// (URL) and AWS_ENDPOINT_URL_BEDROCK_AGENTCORE (DataPlaneURL), or a BaseEndpoint.
//
// The official AWS SDK for JavaScript v3 clients are the judge of its wire format
// (conformance/aws.test.mjs). Tests seed it and break it from Go (SeedCodeInterpreter, InjectFault,
// DenyAccess), read its live code interpreter sessions (CodeInterpreterSessions), or, from outside
// the process, use the unsigned control paths under ControlPrefix.
package awsemu
