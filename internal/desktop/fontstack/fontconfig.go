//go:build linux && cgo

package fontstack

/*
#cgo pkg-config: fontconfig
#include <fontconfig/fontconfig.h>
#include <stdlib.h>
#include <string.h>

// accepted returns (malloc'd) the family fontconfig draws name with, or NULL
// when WebKitGTK would refuse the match and try its stack's next name.
static char *accepted(FcConfig *cfg, const char *name, int generic) {
	FcPattern *p = FcPatternCreate();
	if (!p) return NULL;
	FcPatternAddBool(p, FC_SCALABLE, FcTrue);
	if (!FcPatternAddString(p, FC_FAMILY, (const FcChar8 *)name)) {
		FcPatternDestroy(p);
		return NULL;
	}
	FcConfigSubstitute(cfg, p, FcMatchPattern);
	FcDefaultSubstitute(p);
	FcChar8 *configured = NULL;
	FcPatternGetString(p, FC_FAMILY, 0, &configured);
	FcResult res;
	FcPattern *m = FcFontMatch(cfg, p, &res);
	char *out = NULL;
	if (m) {
		FcValue v;
		FcValueBinding b;
		int ok = generic;
		for (int i = 0; !ok && FcPatternGetWithBinding(m, FC_FAMILY, i, &v, &b) == FcResultMatch; i++)
			ok = b == FcValueBindingStrong || (configured && FcStrCmpIgnoreCase(configured, v.u.s) == 0);
		FcChar8 *family = NULL;
		if (ok && FcPatternGetString(m, FC_FAMILY, 0, &family) == FcResultMatch)
			out = strdup((const char *)family);
		FcPatternDestroy(m);
	}
	FcPatternDestroy(p);
	return out;
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

type fcConfig struct{ c *C.FcConfig }

func (f fcConfig) match(name string, generic bool) (string, bool) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	g := C.int(0)
	if generic {
		g = 1
	}
	out := C.accepted(f.c, cname, g)
	if out == nil {
		return "", false
	}
	defer C.free(unsafe.Pointer(out))
	return C.GoString(out), true
}

func loadDefault() (config, error) {
	c := C.FcInitLoadConfigAndFonts()
	if c == nil {
		return nil, errors.New("fontconfig: no configuration")
	}
	return fcConfig{c}, nil
}

// loadFile loads the configuration in file (and the fonts it names).
func loadFile(file string) (config, error) {
	c := C.FcConfigCreate()
	cfile := C.CString(file)
	defer C.free(unsafe.Pointer(cfile))
	if C.FcConfigParseAndLoad(c, (*C.FcChar8)(unsafe.Pointer(cfile)), C.FcTrue) == C.FcFalse || C.FcConfigBuildFonts(c) == C.FcFalse {
		C.FcConfigDestroy(c)
		return nil, errors.New("fontconfig: cannot load " + file)
	}
	return fcConfig{c}, nil
}
