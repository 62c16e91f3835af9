/* user/false.c - exits 1, as POSIX false(1): a test sees the status travel. */
#include "user/lib/ulib.h"

int main(int argc, char **argv)
{
	return 1;
}
