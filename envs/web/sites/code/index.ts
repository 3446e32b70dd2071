// CodeHub: a GitHub-like code host. Repositories with topics, stars, releases and tags; issues with labels; pull
// requests with authors. Routes: /, /search, /topics[/t], /owner/name[/issues[/new|/n]|/labels|/pulls[/n]|
// /releases|/tags], and POSTs for starring, opening issues, applying labels and closing issues.
import type { SiteRequest, SiteResponse, WebSite } from '../../site.ts';
import { createDb, repoOf, type CodeDb } from './db.ts';
import {
  createIssue,
  findIssue,
  issueList,
  issuePage,
  labelsPage,
  missingIssue,
  newIssueForm,
  setLabels,
  toggleState,
} from './issues.ts';
import { home, overview, releases, search, star, tags, topicPage, topics } from './pages.ts';
import { pullList, pullPage } from './pulls.ts';
import { CODE_TEMPLATES } from './templates.ts';
import { notFound } from './ui.ts';

function repoRoute(db: CodeDb, req: SiteRequest, parts: string[]): SiteResponse {
  const repo = repoOf(db, `${parts[0]}/${parts[1]}`);
  if (!repo) return notFound(`Repository ${parts[0]}/${parts[1]}`);
  const [section, id, action] = parts.slice(2);
  const post = req.method === 'POST';
  if (!section) return overview(db, repo);
  if (section === 'star' && post) return star(repo);
  if (section === 'releases') return releases(db, repo);
  if (section === 'tags') return tags(db, repo);
  if (section === 'labels') return labelsPage(db, repo);
  if (section === 'pulls') {
    if (!id) return pullList(db, repo, req);
    const pull = db.pulls.find((x) => x.repo === repo.full && x.number === Number(id));
    return pull ? pullPage(db, repo, pull) : notFound(`Pull request #${id}`);
  }
  if (section === 'issues') {
    if (!id) return post ? createIssue(db, repo, req) : issueList(db, repo, req);
    if (id === 'new') return newIssueForm(db, repo);
    const issue = findIssue(db, repo, Number(id));
    if (!issue) return missingIssue(Number(id));
    if (post && action === 'labels') return setLabels(db, repo, issue, req);
    if (post && action === 'state') return toggleState(repo, issue);
    return issuePage(db, repo, issue);
  }
  return notFound(req.path);
}

function handle(db: CodeDb, req: SiteRequest): SiteResponse {
  const parts = req.path
    .split('/')
    .filter(Boolean)
    .map((p) => decodeURIComponent(p));
  if (!parts.length) return home(db);
  if (parts[0] === 'search') return search(db, req);
  if (parts[0] === 'topics') return parts[1] ? topicPage(db, parts[1], req) : topics(db);
  if (parts.length >= 2) return repoRoute(db, req, parts);
  return notFound(req.path);
}

export const codeSite: WebSite<CodeDb> = {
  name: 'code',
  title: 'CodeHub',
  description:
    'CodeHub is a GitHub-like code host: explore topics and search repositories, read a repository’s releases and tags, browse its issues (filtered by state and label) and pull requests, open issues and label them. Tasks ask for the most-starred repository of a topic, the latest release tag, a pull request’s author, the number of open issues with a label, or to open a labelled issue.',
  createDb,
  handle,
  templates: CODE_TEMPLATES,
};
