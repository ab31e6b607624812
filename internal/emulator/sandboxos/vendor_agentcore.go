package sandboxos

import "maps"

// agentCoreLibraries are Python packages AgentCore's "Pre-installed libraries" page lists, by the
// name they are imported as: a check's `python3 -c "import pandas"` passes there without pip.
var agentCoreLibraries = []string{
	"pandas", "polars", "numpy", "matplotlib", "seaborn", "plotly", "bokeh", "scipy", "statsmodels", "sympy",
	"numba", "pyarrow", "sklearn", "skimage", "torch", "torchvision", "torchaudio", "xgboost", "requests",
	"boto3", "botocore", "bs4", "lxml", "openpyxl", "PIL", "cv2", "yaml", "pydantic",
}

// AgentCoreCodeInterpreter is what an Amazon Bedrock AgentCore code interpreter session runs
// commands in (executeCommand). AWS documents its languages (Python, JavaScript and TypeScript,
// Node.js) and its pre-installed libraries, not its distribution, Python version, user or
// working directory, so the model is an assumption built on what is documented: python:3.12
// (Debian, python3 and pip in /usr/local/bin, git and curl) with Node 22 and deno beside it and
// the documented libraries installed, commands run as root in /.
func AgentCoreCodeInterpreter() Image {
	img, _ := officialImage("python", "3.12")
	maps.Copy(img.Programs, bins("/usr/local/bin", "node", "npm", "npx", "deno"))
	img.Node = nodeVersions["22"]
	site := "/usr/local/lib/" + pythonDir(img.Python) + "/site-packages/"
	for _, lib := range agentCoreLibraries {
		img.Files[site+lib+"/__init__.py"] = ""
	}
	img.Cmd = nil
	return img
}
