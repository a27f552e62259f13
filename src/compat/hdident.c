/* kbench - hdparm -I and -i: a drive's identity, asked as hdparm asks it
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The 512 bytes of ATA IDENTIFY DEVICE: 256 little-endian words; the
 * strings (serial number words 10-19, firmware revision 23-26, model
 * number 27-46) hold two characters a word, the first in the high byte,
 * padded with blanks.  Word 0 bit 7 says removable media.
 */
#include "config.h"
#include "cli.h"
#include "compat/hdident.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/hdreg.h>
#include <scsi/sg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* open dev as hdparm does; -1 with hdparm's words and *status the errno */
static int open_dev(const char *dev, int *status)
{
	int fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		fflush(stdout);
		fprintf(stderr, "%s: %s\n", dev, strerror(e));
		*status = e > 0 && e < 126 ? e : KB_EXIT_FAIL;
	}
	return fd;
}

/* The string of words [first, first+n) of id into out (2n+1 bytes),
 * without its trailing blanks. */
static void id_string(const uint8_t *id, unsigned first, unsigned n, char *out)
{
	for (unsigned i = 0; i < n; i++) {
		out[2 * i] = (char)id[2 * (first + i) + 1];
		out[2 * i + 1] = (char)id[2 * (first + i)];
	}
	size_t len = 2 * n;
	while (len && (out[len - 1] == ' ' || out[len - 1] == 0))
		len--;
	out[len] = 0;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)out[i] < 0x20 || (unsigned char)out[i] > 0x7e)
			out[i] = '?';
}

/* IDENTIFY DEVICE through SG_IO into id; 0, or -1 when the device does
 * not carry the command. */
static int sg_identify(int fd, uint8_t id[512])
{
	uint8_t cdb[16] = { 0 }, sense[32] = { 0 };
	cdb[0] = 0x85;        /* ATA PASS-THROUGH(16) */
	cdb[1] = 4 << 1;      /* protocol: PIO data-in */
	cdb[2] = 0x0e;        /* to the host, a count of blocks, in the count field */
	cdb[6] = 1;           /* one block */
	cdb[14] = 0xec;       /* IDENTIFY DEVICE */
	struct sg_io_hdr h;
	memset(&h, 0, sizeof(h));
	h.interface_id = 'S';
	h.cmdp = cdb;
	h.cmd_len = sizeof(cdb);
	h.dxferp = id;
	h.dxfer_len = 512;
	h.dxfer_direction = SG_DXFER_FROM_DEV;
	h.sbp = sense;
	h.mx_sb_len = sizeof(sense);
	h.timeout = 15000;    /* ms */
	memset(id, 0, 512);
	if (ioctl(fd, SG_IO, &h) < 0 || h.status || h.host_status || h.masked_status ||
	    (h.driver_status & 0x0f) || h.resid >= 512)
		return -1;
	/* a drive that answers has a model number or a serial number */
	for (unsigned i = 20; i < 94; i++)
		if (id[i] && id[i] != ' ')
			return 0;
	return -1;
}

int hd_identify_ata(const char *dev)
{
	int status = 0, fd = open_dev(dev, &status);
	if (fd < 0)
		return status;
	uint8_t id[512];
	if (sg_identify(fd, id) == 0) {
		char model[41], serial[21], fw[9];
		id_string(id, 27, 20, model);
		id_string(id, 10, 10, serial);
		id_string(id, 23, 4, fw);
		printf("\nATA device, with %sremovable media\n", (id[0] & 0x80) ? "" : "non-");
		printf("\tModel Number:       %s\n", model);
		printf("\tSerial Number:      %s\n", serial);
		printf("\tFirmware Revision:  %s\n", fw);
	}
	close(fd);
	return 0;
}

int hd_identify_drive(const char *dev)
{
	int status = 0, fd = open_dev(dev, &status);
	if (fd < 0)
		return status;
	struct hd_driveid d;
	if (ioctl(fd, HDIO_GET_IDENTITY, &d) < 0) {
		int e = errno;
		close(fd);
		fflush(stdout);
		fprintf(stderr, " HDIO_GET_IDENTITY failed: %s\n", strerror(e));
		return e > 0 && e < 126 ? e : KB_EXIT_FAIL;
	}
	close(fd);
	printf("\n Model=%.40s, FwRev=%.8s, SerialNo=%.20s\n", (const char *)d.model,
	       (const char *)d.fw_rev, (const char *)d.serial_no);
	return 0;
}
