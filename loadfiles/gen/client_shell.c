/* kbench - genload client: the shell's actions
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the desktop does besides the applications: browsing a folder
 * (listing, details, previews), looking for files that mostly are not
 * there, and the list of recent documents.
 */
#include "officeday.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

void act_browse(void)
{
	char dir[PATHLEN], p[PATHLEN];
	unsigned r = rnd(10);
	if (r < 7)
		strcpy(dir, apps[pick_app(0, 0, 0)].dir);
	else if (r == 7)
		strcpy(dir, TEMPLATES);
	else if (r == 8)
		strcpy(dir, DATABASES);
	else
		strcpy(dir, OFFICE);
	qpathinfo(dir, 1004);
	int h = nt_create(dir, 0x1, 1, R_DIR, -1);
	if (chance(50))
		qfileinfo(h, 1004);
	gen_join(p, dir, "*");
	find_first(p, 512);
	qfsinfo(1007);   /* the free space in the status bar */
	nt_close(h);
	gen_join(p, dir, "desktop.ini");
	qpathinfo(p, 1004);
	/* details: a few files, then icons and the preview pane: the
	 * first page of a few documents */
	int idx[256], nf = files_in(dir, idx, 256), k = 0;
	for (unsigned n = 1 + rnd(4); n && k < nf; n--)
		qpathinfo(ents[idx[k++]].path, 1034);
	for (unsigned n = 1 + rnd(5); n && k < nf; k++) {
		struct ent *e = &ents[idx[k]];
		if (e->open || e->size < 4096 ||
		    (e->role != R_DOC && e->role != R_TEMPLATE && e->role != R_DB))
			continue;
		h = nt_create(e->path, 0x40, 1, 0, 0);
		readx(h, 0, 4096);
		nt_close(h);
		n--;
	}
}

/* applications and the shell looking for files that mostly are not there */
void act_probe(void)
{
	char p[PATHLEN], dir[PATHLEN];
	for (unsigned n = 2 + rnd(4); n; n--) {
		int app = (int)rnd((uint32_t)NAPPS);
		strcpy(dir, apps[app].dir);
		switch (rnd(9)) {
		case 0:
			gen_join(p, dir, "desktop.ini");
			probe_open(p);
			break;
		case 1:
			gen_join(p, dir, "Thumbs.db");
			qpathinfo(p, 1004);
			break;
		case 2:
			gen_join(p, dir, "*.lnk");
			find_first(p, 1);
			break;
		case 3:
			gen_join(p, dir, "~$*");
			find_first(p, 1);
			break;
		case 4: {
			const char *s = random_stale();
			if (s) {
				qpathinfo(s, 1004);
				probe_open(s);
			} else {
				gen_join(p, dir, "Folder.jpg");
				qpathinfo(p, 1004);
			}
			break;
		}
		case 5:
			gen_join(p, TEMPDIR, "~ar*.tmp");
			find_first(p, 1);
			break;
		case 6: {
			int e = pick_ent(R_DOC, app, 0);
			if (e >= 0) {
				snprintf(p, sizeof(p), "%s", ents[e].path);
				strcpy(strrchr(p, '.'), ".bak");
				qpathinfo(p, 1004);
				probe_open(p);
			}
			break;
		}
		case 7:
			gen_join(p, dir, "*.tmp");
			find_first(p, 1);
			break;
		default:
			gen_join(p, dir, "AutoRun.inf");
			qpathinfo(p, 1004);
			break;
		}
	}
}

/* the shell's list of recent documents: listed, followed, pruned */
void act_recent(void)
{
	char p[PATHLEN];
	gen_join(p, RECENT, "*.lnk");
	find_first(p, 512);
	int nlinks = 0;
	for (int i = 0; i < nents; i++)
		nlinks += ents[i].live && ents[i].role == R_LINK;
	while (nlinks > 14) {
		int old = -1;
		for (int i = 0; i < nents; i++)
			if (ents[i].live && ents[i].role == R_LINK &&
			    (old < 0 || ents[i].serial < ents[old].serial))
				old = i;
		strcpy(p, ents[old].path);
		unlink_path(p);
		nlinks--;
	}
	for (unsigned n = 1 + rnd(3); n; n--) {
		int e = pick_ent(R_LINK, -1, 1);
		if (e < 0)
			break;
		char target[PATHLEN];
		strcpy(target, ents[e].target);
		int h = nt_create(ents[e].path, 0x40, 1, 0, 0);
		readx(h, 0, (uint32_t)hent(h)->size);
		nt_close(h);
		qpathinfo(target, 1034);
	}
}
