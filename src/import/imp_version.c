/* kbench - import: whether a version in a sentence is a kernel's
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * See imp_version.h.  The lowest floor of import's kernel rules: the
 * word reader (imp_util.c) and the kernel rules (imp_kernel.c) both ask
 * it, and it asks nothing of either.
 */
#include "config.h"
#include "import/imp_version.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* The words that may stand right before a kernel's version in a sentence
 * about it: the kernel's own names, prepositions and conjunctions, and
 * what posters say of a kernel.  Any other word of letters right before a
 * version names the program the version is of. */
static const char *const before_kernel[] = {
	/* the kernel's own names, and what posters call a kernel */
	"kernel", "kernels", "linux", "vanilla", "stock", "plain", "patched", "unpatched",
	"pristine", "mainline", "official", "new", "old", "older", "newer", "latest", "previous",
	"current", "modified", "unmodified", "release", "version", "tree", "results", "numbers",
	"re", "fwd", "subject", "pre", "rc", "test", "ac", "mm",
	/* verbs of a sentence about a kernel */
	"boot", "booted", "run", "runs", "running", "tested", "testing", "tried", "try", "use",
	"see", "saw", "got", "get", "gets", "gave", "gives", "built", "build", "compile",
	"upgrade", "install", "went", "go", "goes", "came", "come", "became", "become", "make",
	"made", "has", "have", "had", "do", "does", "did", "is", "was", "were", "are", "be",
	"been", "being", "am", "will", "would", "shall", "should", "can", "could", "may",
	"might", "must",
	/* English's closed classes: prepositions, conjunctions, pronouns,
	 * determiners and the like never name a program */
	"on", "with", "w/", "for", "in", "under", "using", "from", "to", "and", "or", "nor",
	"but", "vs", "versus", "against", "then", "of", "at", "than", "as", "via", "by", "up",
	"down", "back", "over", "into", "onto", "about", "like", "unlike", "since", "until",
	"before", "after", "between", "without", "within", "upon", "per", "off", "out",
	"around", "through", "across", "beyond", "plus", "minus", "except", "near", "toward",
	"towards", "the", "a", "an", "this", "that", "these", "those", "my", "your", "his",
	"her", "its", "our", "their", "i", "we", "you", "he", "she", "it", "they", "me", "us",
	"him", "them", "what", "which", "who", "whose", "whom", "all", "any", "some", "each",
	"every", "no", "not", "both", "either", "neither", "one", "two", "three", "if", "so",
	"yet", "because", "while", "when", "where", "whereas", "though", "although", "unless",
	"only", "also", "now", "here", "there", "just", "even", "still", "already", "again",
	"more", "most", "less", "least", "much", "many", "few", "same", "other", "another",
	"such", "very", "too", "thus", "hence", "however", "therefore",
};

bool imp_version_owned(char *const *w, size_t i)
{
	/* a kernel tree's suffix ("-pre3", "-ac1", "-rc2", "-mm1") is a
	 * kernel's, whatever stands before it ("rebuilt 2.5.2-pre3") */
	for (const char *d = strchr(w[i], '-'); d; d = strchr(d + 1, '-'))
		if (isalpha((unsigned char)d[1]))
			return false;
	if (!i)
		return false;
	const char *p = w[i - 1];
	size_t len = strlen(p);
	/* a clause ends, or a list marker, a possessive ("Linus'", "Alan's") */
	if (!len || strchr(",;:.()[]-'\"", p[len - 1]) || (len > 2 && !strcmp(p + len - 2, "'s")))
		return false;
	for (size_t j = 0; j < len; j++)
		if (!isalpha((unsigned char)p[j]) && !(j && strchr("-+_/", p[j])))
			return false;  /* a figure, a version, a path: no program's name */
	for (size_t k = 0; k < sizeof(before_kernel) / sizeof(before_kernel[0]); k++)
		if (!strcasecmp(p, before_kernel[k]))
			return false;
	/* a verb's participle: "compiled 2.4.2", "upgrading 2.4.19" */
	if (len > 4 && (!strcmp(p + len - 2, "ed") || !strcmp(p + len - 3, "ing")))
		return false;
	return true;
}
