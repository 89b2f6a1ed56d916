package resources

import (
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Profile is a public profile; its id is a string.
var Profile = &schema.Entity{
	Key:      "Profile",
	Defaults: value.MustParse(`{"id":null,"fullName":"","bio":""}`),
}

// Profiles is the profile resource on /profiles/:id.
type Profiles struct {
	*rest.Resource
}

func newProfiles(prefix string) (*Profiles, error) {
	r, err := rest.NewResource(rest.ResourceOptions{URLPrefix: prefix, Path: "/profiles/:id", Schema: Profile})
	if err != nil {
		return nil, err
	}
	return &Profiles{Resource: r}, nil
}
