package redact

import "regexp"

// rule finds one kind of credential. Keys are literals of which every
// match holds one (ASCII letters in either case when fold is set): the
// expression runs only on windows around their occurrences, from back
// bytes before one to fwd bytes after its end, because most text holds
// none and a scan for literals is far cheaper than a regexp pass. fwd
// covers a long match; a window goes on past it to the next space or
// quote, so that an unbounded one is not cut short. An expression with a
// capture group redacts the group only (the value after "token="), else
// the whole match.
//
// The expressions are written here from the formats' public descriptions
// (prefixes, lengths, alphabets). They are RE2 (package regexp): matching
// is linear in the input whatever it holds, so no text can make them
// backtrack.
type rule struct {
	kind      string
	keys      []string
	fold      bool
	back, fwd int
	keyLen    int // the longest key's length
	re        *regexp.Regexp
}

func r(kind string, keys []string, back, fwd int, expr string) rule {
	x := rule{kind: kind, keys: keys, back: back, fwd: fwd, re: regexp.MustCompile(expr)}
	for _, k := range keys {
		x.keyLen = max(x.keyLen, len(k))
	}
	return x
}

// folded is a rule whose keys are matched case-insensitively.
func folded(kind string, keys []string, back, fwd int, expr string) rule {
	x := r(kind, keys, back, fwd, expr)
	x.fold = true
	return x
}

// rules are the built-in detectors, most specific first: where two match
// overlapping text, the earlier rule names it.
var rules = []rule{
	// AWS access key ids: a four-letter prefix for the key's type and 16
	// characters of upper-case base32.
	r("aws-access-key", []string{"AKIA", "ASIA", "ABIA", "ACCA"}, 0, 24, `\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`),
	// AWS secret keys have no prefix: 40 base64 characters, recognised
	// only near words that name them.
	folded("aws-secret-key", []string{"aws", "secret_access", "secretaccess"}, 24, 512,
		`(?i)(?:aws.{0,24}(?:secret|private)|secret_?access_?key).{0,24}?[\s"'=:>]{1,6}([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`),
	// Google API keys: "AIza" and 35 URL-safe characters; OAuth client
	// secrets: "GOCSPX-" and 28.
	r("gcp-api-key", []string{"AIza"}, 0, 48, `\bAIza[0-9A-Za-z_-]{35}\b`),
	r("gcp-client-secret", []string{"GOCSPX-"}, 0, 40, `\bGOCSPX-[0-9A-Za-z_-]{28}\b`),
	// Azure storage account keys (86 base64 characters and "==", in a
	// connection string) and Entra ID client secrets (three characters, a
	// digit, "Q~", then 31 to 34).
	folded("azure-storage-key", []string{"accountkey="}, 0, 112, `(?i)AccountKey=([A-Za-z0-9+/]{86}==)`),
	r("azure-client-secret", []string{"Q~"}, 8, 48, `(?:^|[^A-Za-z0-9_~.-])([A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34})(?:[^A-Za-z0-9_~.-]|$)`),
	// GitHub: classic tokens are a type prefix and 36 alphanumerics (the
	// last six a checksum); fine-grained ones "github_pat_" and 82 more.
	r("github-token", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, 0, 272,
		`\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{60,251})\b`),
	// GitLab: a "gl" type prefix, a dash and at least 20 characters.
	r("gitlab-token", []string{"glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glft-", "glimt-", "gloas-", "glsoat-", "glagent-", "glffct-"}, 0, 272,
		`\bgl(?:pat|dt|rt|ptt|cbt|ft|imt|oas|soat|agent|ffct)-[0-9A-Za-z_-]{20,250}`),
	// Slack: bot, user, app and refresh tokens, and incoming webhooks.
	r("slack-token", []string{"xox", "xapp-"}, 0, 300, `\b(?:xox[abposre]-[0-9A-Za-z-]{10,250}|xapp-[0-9]-[A-Z0-9]{6,32}-[0-9]{6,32}-[a-f0-9]{32,200})`),
	r("slack-webhook", []string{"hooks.slack.com"}, 8, 340, `https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{20,300}`),
	// Stripe secret and restricted keys, and webhook signing secrets.
	r("stripe-key", []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"}, 0, 272,
		`\b(?:(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{20,247}|whsec_[0-9A-Za-z]{32,100})\b`),
	// Anthropic: "sk-ant-", the key's type and version, then about 95
	// characters. Before OpenAI's, which also start "sk-".
	r("anthropic-key", []string{"sk-ant-"}, 0, 224, `\bsk-ant-(?:api|admin|oat)[0-9]{2}-[A-Za-z0-9_-]{80,200}`),
	// OpenAI: project, service-account and admin keys, and the older keys
	// whose middle is "T3BlbkFJ" (base64 of "OpenAI").
	r("openai-key", []string{"sk-proj-", "sk-svcacct-", "sk-admin-", "T3BlbkFJ"}, 32, 330,
		`\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,300}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})`),
	// JSON Web Tokens: three base64url parts, the first two JSON objects
	// (so "eyJ", the encoding of `{"`).
	r("jwt", []string{"eyJ"}, 0, 3100, `\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`),
	// Credentials in URLs: a password in the userinfo, or a token-like
	// query parameter. The value goes, the name and the URL stay.
	r("url-credential", []string{"@"}, 330, 1, `\b[A-Za-z][A-Za-z0-9+.-]{1,20}://[^/\s:@"'\\]{1,100}:([^/\s@"'\\]{3,200})@`),
	folded("url-credential", []string{"token=", "key=", "secret=", "passw", "pwd=", "sig=", "signature="}, 32, 1100,
		`(?i)[?&;](?:access_token|refresh_token|id_token|auth_token|token|api_key|apikey|api-key|secret|client_secret|password|passwd|pwd|sig|signature|x-amz-signature|x-amz-security-token|x-goog-signature)=([^&#\s"'\\<>]{8,})`),
	// Authorization header values: a bearer token, or basic credentials.
	folded("bearer-token", []string{"bearer", "basic"}, 48, 1100,
		`(?i)\b(?:bearer\s+([A-Za-z0-9._~+/-]{20,}=*)|authorization["']?\s*[:=]\s*["']?basic\s+([A-Za-z0-9+/]{12,}=*))`),
}
