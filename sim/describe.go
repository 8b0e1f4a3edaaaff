package sim

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// DBTable is one table of a domain's database: a top-level collection of
// its state (a map or a slice), named by its JSON key, with its number of
// rows (entries).
type DBTable struct {
	Name string
	Rows int
}

// DBDescription is the size of a domain's database: its tables in the
// state type's field order, and the bytes of its canonical JSON (the
// encoding Environment.Hash hashes).
type DBDescription struct {
	Tables []DBTable
	Bytes  int
}

// DatabaseDescriber is implemented by environments that can describe
// their database; *StateEnv does, for any state type.
type DatabaseDescriber interface {
	DescribeDatabase() (DBDescription, error)
}

// DescribeDatabase describes env's current database when env implements
// DatabaseDescriber; ok is false (and the description empty) when it does
// not, so callers report the size as unknown. The error is the
// describer's.
func DescribeDatabase(env Environment) (desc DBDescription, ok bool, err error) {
	d, ok := env.(DatabaseDescriber)
	if !ok {
		return DBDescription{}, false, nil
	}
	desc, err = d.DescribeDatabase()
	return desc, err == nil, err
}

// DescribeDatabase describes the environment's state S by reflection:
// each exported top-level field of S that is a Table, a map, a slice or
// an array and is encoded in JSON is a table, named by its JSON key (the field's
// name without a tag), whose rows are its length; other fields (counters,
// clocks) are not tables. Bytes is the length of json.Marshal(State). It
// fails when State is nil or does not encode as JSON; a state that is not
// a struct has no tables, only bytes.
func (e *StateEnv[S]) DescribeDatabase() (DBDescription, error) {
	if e.State == nil {
		return DBDescription{}, fmt.Errorf("describe database: the state is nil")
	}
	b, err := json.Marshal(e.State)
	if err != nil {
		return DBDescription{}, fmt.Errorf("describe database: %w", err)
	}
	desc := DBDescription{Bytes: len(b), Tables: []DBTable{}}
	v := reflect.ValueOf(e.State).Elem()
	if v.Kind() != reflect.Struct {
		return desc, nil
	}
	for i := range v.NumField() {
		field := v.Type().Field(i)
		name, ok := jsonFieldName(field)
		if !ok {
			continue
		}
		if t, ok := v.Field(i).Addr().Interface().(interface{ Len() int }); ok { // a Table
			desc.Tables = append(desc.Tables, DBTable{Name: name, Rows: t.Len()})
			continue
		}
		switch f := v.Field(i); f.Kind() {
		case reflect.Map, reflect.Slice, reflect.Array:
			desc.Tables = append(desc.Tables, DBTable{Name: name, Rows: f.Len()})
		}
	}
	return desc, nil
}

// jsonFieldName is the key encoding/json gives field, and false for a
// field it leaves out (unexported, or tagged "-"). Embedded structs are
// left out too: their fields are not one collection.
func jsonFieldName(field reflect.StructField) (string, bool) {
	if !field.IsExported() || field.Anonymous {
		return "", false
	}
	tag := field.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	if name, _, _ := strings.Cut(tag, ","); name != "" {
		return name, true
	}
	return field.Name, true
}
