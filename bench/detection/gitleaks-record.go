// Added by Verdict's detection benchmark (bench/detection/gitleaks-samples.mjs) to a temporary
// copy of gitleaks' module source: every sample a rule is validated with is appended, as one JSON
// line, to the file named by GITLEAKS_SAMPLES_OUT. The family is the rule's source file
// (cmd/generate/config/rules/<family>.go), found from the caller of Validate.

package utils

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

type verdictSample struct {
	RuleID string `json:"rule_id"`
	Family string `json:"family"`
	Kind   string `json:"kind"`
	Text   string `json:"text"`
	Path   string `json:"path,omitempty"`
}

func verdictFamily() string {
	// 0 verdictFamily, 1 verdictRecord*, 2 Validate*, 3 the rule's constructor.
	for skip := 3; skip < 8; skip++ {
		_, file, _, ok := runtime.Caller(skip)
		if !ok {
			break
		}
		if strings.Contains(filepath.ToSlash(file), "/config/rules/") {
			return strings.TrimSuffix(filepath.Base(file), ".go")
		}
	}
	return "unknown"
}

func verdictWrite(samples []verdictSample) {
	out := os.Getenv("GITLEAKS_SAMPLES_OUT")
	if out == "" {
		return
	}
	f, err := os.OpenFile(out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, s := range samples {
		if err := enc.Encode(s); err != nil {
			panic(err)
		}
	}
}

func verdictRecord(ruleID string, tps []string, fps []string) {
	family := verdictFamily()
	var samples []verdictSample
	for _, t := range tps {
		samples = append(samples, verdictSample{RuleID: ruleID, Family: family, Kind: "tp", Text: t})
	}
	for _, t := range fps {
		samples = append(samples, verdictSample{RuleID: ruleID, Family: family, Kind: "fp", Text: t})
	}
	verdictWrite(samples)
}

func verdictRecordPaths(ruleID string, tps map[string]string, fps map[string]string) {
	family := verdictFamily()
	var samples []verdictSample
	for _, kind := range []string{"tp", "fp"} {
		m := tps
		if kind == "fp" {
			m = fps
		}
		paths := make([]string, 0, len(m))
		for p := range m {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			samples = append(samples, verdictSample{RuleID: ruleID, Family: family, Kind: kind, Text: m[p], Path: p})
		}
	}
	verdictWrite(samples)
}
