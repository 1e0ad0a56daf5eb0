/* The reader's two bulk allocations, in C: see spvbuild/accel/records.py.
 *
 * A typed read of a big module makes one Instruction record (a NamedTuple, so a tuple
 * subclass) per instruction and one Id (an int subclass) per result id.  In Python both
 * go through a generic call: tuple.__new__(Instruction, items) builds two argument tuples
 * and a slice before it allocates, Id(n) passes through type.__call__, int's argument
 * parser and __init__.  These two functions do the same work with one allocation each
 * and give the same objects:
 *
 *   new_record(cls, items)  ==  tuple.__new__(cls, items)   (items: a tuple)
 *   new_ids(cls, count)     ==  list(map(cls, range(count)))
 *
 * The public C API is used, and on CPython 3.11 only the layout of an int of one digit
 * (cpython/longintrepr.h; later versions take int's own constructor).  Built by
 * `python -m spvbuild.accel.accelerate` (a development checkout) or with the wheel
 * (setup.py), with SOURCE_SHA256 defined as the digest of this file, so that a stale
 * build is never used (records.py compares it).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#ifndef SOURCE_SHA256
#define SOURCE_SHA256 ""
#endif

/* new_record(cls, items): a new instance of the tuple subclass cls holding the items of
 * the tuple items (what tuple.__new__(cls, items) gives, without its argument tuples). */
static PyObject *
new_record(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "new_record() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *cls = args[0];
    PyObject *items = args[1];
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "new_record(): cls must be a tuple subclass");
        return NULL;
    }
    if (!PyTuple_CheckExact(items)) {
        PyErr_SetString(PyExc_TypeError, "new_record(): items must be a tuple");
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)cls;
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    PyObject *record = type->tp_alloc(type, n);
    if (record == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(items, i);
        Py_INCREF(item);
        PyTuple_SET_ITEM(record, i, item);
    }
    return record;
}

/* new_ids(cls, count): the list [cls(0), cls(1), ..., cls(count - 1)] for an int subclass
 * cls that does not define __new__ (int's own constructor, called without type.__call__). */
static PyObject *
new_ids(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "new_ids() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *cls = args[0];
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyLong_Type)
        || ((PyTypeObject *)cls)->tp_new != PyLong_Type.tp_new) {
        PyErr_SetString(PyExc_TypeError,
                        "new_ids(): cls must be an int subclass without its own __new__");
        return NULL;
    }
    if (!PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "new_ids(): count must be an int");
        return NULL;
    }
    Py_ssize_t count = PyLong_AsSsize_t(args[1]);
    if (count == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (count < 0) {
        PyErr_SetString(PyExc_ValueError, "new_ids(): count must not be negative");
        return NULL;
    }
    PyObject *ids = PyList_New(count);
    if (ids == NULL) {
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)cls;
    for (Py_ssize_t i = 0; i < count; i++) {
#if PY_VERSION_HEX < 0x030C0000
        /* CPython 3.11: an int of one digit is its size (1) and that digit; a subclass
         * instance of int without slots is laid out the same (int's own constructor
         * copies the size and digits into what tp_alloc gives).  Later versions lay ints
         * out differently: they take the constructor below. */
        if (i > 0 && i < ((Py_ssize_t)1 << PyLong_SHIFT)) {
            PyLongObject *id = (PyLongObject *)type->tp_alloc(type, 1);
            if (id == NULL) {
                Py_DECREF(ids);
                return NULL;
            }
            Py_SET_SIZE(id, 1);
            id->ob_digit[0] = (digit)i;
            PyList_SET_ITEM(ids, i, (PyObject *)id);
            continue;
        }
#endif
        PyObject *value = PyLong_FromSsize_t(i);
        if (value == NULL) {
            Py_DECREF(ids);
            return NULL;
        }
        PyObject *call = PyTuple_Pack(1, value);
        Py_DECREF(value);
        if (call == NULL) {
            Py_DECREF(ids);
            return NULL;
        }
        PyObject *id = PyLong_Type.tp_new(type, call, NULL);
        Py_DECREF(call);
        if (id == NULL) {
            Py_DECREF(ids);
            return NULL;
        }
        PyList_SET_ITEM(ids, i, id);
    }
    return ids;
}

static PyMethodDef methods[] = {
    {"new_record", (PyCFunction)(void (*)(void))new_record, METH_FASTCALL,
     "new_record(cls, items): tuple.__new__(cls, items) for a tuple subclass and a tuple."},
    {"new_ids", (PyCFunction)(void (*)(void))new_ids, METH_FASTCALL,
     "new_ids(cls, count): list(map(cls, range(count))) for an int subclass."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "spvbuild.accel._records",
    "The reader's bulk allocations in C (see spvbuild.accel.records).",
    -1,
    methods,
};

PyMODINIT_FUNC
PyInit__records(void)
{
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL) {
        return NULL;
    }
    if (PyModule_AddStringConstant(module, "SOURCE_SHA256", SOURCE_SHA256) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
