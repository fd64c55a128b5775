package demo

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"

	"github.com/seed11a79d2d/codemode/tool"
)

// chartImage draws one bar per shipment, its height proportional to the
// tonnage. It returns an MCP image content block; images cannot cross the
// cell's JSON bridge, which is why the tool is direct-only.
func (p *Plugin) chartImage(context.Context, tool.Call) (tool.Result, error) {
	rows := p.Shipments()
	const bar, gap, height = 10, 4, 64
	maxTons := 1.0
	for _, s := range rows {
		maxTons = max(maxTons, s.Tons)
	}
	img := image.NewNRGBA(image.Rect(0, 0, gap+len(rows)*(bar+gap), height))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for i, s := range rows {
		c := color.NRGBA{0xf0, 0x8c, 0x28, 255}
		if s.Paid {
			c = color.NRGBA{0x2e, 0xa0, 0x4e, 255}
		}
		h := int(s.Tons / maxTons * float64(height-4))
		x0 := gap + i*(bar+gap)
		for y := height - h; y < height; y++ {
			for x := x0; x < x0+bar; x++ {
				img.SetNRGBA(x, y, c)
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return tool.Result{}, err
	}
	block, _ := json.Marshal(map[string]string{
		"type": "image", "mimeType": "image/png", "data": base64.StdEncoding.EncodeToString(buf.Bytes()),
	})
	return tool.Result{Content: []json.RawMessage{block}}, nil
}
