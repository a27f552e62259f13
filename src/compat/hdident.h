/* kbench - hdparm -I and -i: what a drive says of itself (hdident.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mmtests logs `hdparm -I DEV` before its runs; the hdparm personality
 * answers it as hdparm does, without setting anything.
 */
#ifndef KBENCH_COMPAT_HDIDENT_H
#define KBENCH_COMPAT_HDIDENT_H

/* hdparm -I DEV: the drive's IDENTIFY DEVICE data, asked for through
 * SG_IO (an ATA PASS-THROUGH(16) command, as hdparm sends it), printed
 * as the head of hdparm's report: the media line, Model Number, Serial
 * Number and Firmware Revision.  A device that does not answer (a loop
 * device, a file, a disk behind no ATA translation) prints nothing more,
 * as hdparm prints nothing more for it.  Returns hdparm's status: 0, or
 * the errno when dev cannot be opened (said on stderr in hdparm's words,
 * "DEV: message"). */
int hd_identify_ata(const char *dev);

/* hdparm -i DEV: the identity the kernel's driver keeps
 * (HDIO_GET_IDENTITY), as hdparm's " Model=..., FwRev=..., SerialNo=..."
 * line.  Where the driver has none, hdparm's " HDIO_GET_IDENTITY
 * failed: message" on stderr and its status, the errno (22 for a loop
 * device, 25 for a file).  Returns 0 or that status. */
int hd_identify_drive(const char *dev);

#endif
