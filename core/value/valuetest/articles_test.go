package valuetest

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestArticles(t *testing.T) {
	for _, n := range []int{0, 1, 100, 1000} {
		data := Articles(n, 1)
		var arts []struct {
			ID        int      `json:"id"`
			Title     string   `json:"title"`
			Content   string   `json:"content"`
			Published bool     `json:"published"`
			Tags      []string `json:"tags"`
			Author    struct {
				ID   int    `json:"id"`
				Name string `json:"name"`
			} `json:"author"`
		}
		require.NoError(t, json.Unmarshal(data, &arts), "n=%d", n)
		require.Len(t, arts, n)
		authors := map[int]string{}
		for i, a := range arts {
			assert.Equal(t, i+1, a.ID)
			assert.NotEmpty(t, a.Title)
			assert.InDelta(t, 370, len(a.Content), 60)
			assert.NotEmpty(t, a.Tags)
			assert.True(t, a.Author.ID >= 1 && a.Author.ID <= Authors)
			if name, ok := authors[a.Author.ID]; ok {
				assert.Equal(t, name, a.Author.Name, "an author id always has the same name")
			}
			authors[a.Author.ID] = a.Author.Name
		}
		if n >= 1000 {
			assert.Len(t, authors, Authors)
			assert.InDelta(t, 500, len(data)/n, 80, "about 500 bytes an article")
		}
	}
}

func TestArticlesDeterministic(t *testing.T) {
	assert.Equal(t, Articles(50, 9), Articles(50, 9))
	assert.NotEqual(t, Articles(50, 9), Articles(50, 10))
	assert.True(t, bytes.HasPrefix(Articles(2, 9), Articles(1, 9)[:len(Articles(1, 9))-1]),
		"a longer list starts with the shorter one")
}
