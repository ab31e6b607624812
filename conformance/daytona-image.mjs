// Renders Dockerfiles with the official Daytona SDK's Image builder, the oracle of the provider's
// own rendering (internal/builders/daytona TestDockerfileIsTheSDKs). Reads a JSON array of call
// lists ([{method, args}], the first Image.base) on stdin; writes the JSON array of their
// Dockerfiles.
import { Image } from '@daytonaio/sdk'

let input = ''
for await (const chunk of process.stdin) input += chunk
const dockerfiles = JSON.parse(input).map((calls) => {
  let image
  for (const { method, args } of calls) {
    image = method === 'base' ? Image.base(...args) : image[method](...args)
  }
  return image.dockerfile
})
process.stdout.write(JSON.stringify(dockerfiles))
