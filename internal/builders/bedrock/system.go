package bedrock

import "github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol/types"

// SystemCodeInterpreterID is AWS's built-in code interpreter. AWS manages it and it is READY in every
// region AgentCore runs in ("code-interpreter-resource-management" in the AgentCore developer guide);
// its ARN has the account "aws" (the codeInterpreterArn pattern of the AgentCore control API).
// GetCodeInterpreter is documented for custom interpreters only ("Gets information about a custom
// code interpreter", API_GetCodeInterpreter), so its answer for this id is not relied on.
const SystemCodeInterpreterID = "aws.codeinterpreter.v1"

// systemCodeInterpreter is what Lookup reports for the built-in interpreter, with no request.
func (b *Builder) systemCodeInterpreter() CodeInterpreter {
	return CodeInterpreter{
		ID:     SystemCodeInterpreterID,
		ARN:    "arn:aws:bedrock-agentcore:" + b.region + ":aws:code-interpreter/" + SystemCodeInterpreterID,
		Status: types.CodeInterpreterStatusReady,
	}
}
