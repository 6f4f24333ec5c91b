/// The routes of experiments on offerings.
extension APIRoute {
    /// `POST /v1/experiments`: a new experiment (a draft).
    public static let postExperiment = APIRoute(
        .postExperiment,
        APIOperation(
            "Add an experiment on offerings (a draft until started)", body: .named("ExperimentPost"), status: 201,
            answer: APIOperation.json(.named("Experiment")), errors: ["400", "401", "403", "409", "413", "5XX"]))
    /// `GET /v1/experiments`: the project's experiments.
    public static let getExperiments = APIRoute(
        .getExperiments,
        APIOperation(
            "The project's experiments", answer: APIOperation.json(.named("ExperimentsResponse")),
            errors: ["401", "403", "5XX"]))
    /// `GET /v1/experiments/{identifier}`: one experiment.
    public static let getExperiment = APIRoute(
        .getExperiment,
        APIOperation(
            "One experiment", parameters: [.experimentID], answer: APIOperation.json(.named("Experiment")),
            errors: ["401", "403", "404", "5XX"]))
    /// `POST /v1/experiments/{identifier}/start`: start enrolling.
    public static let startExperiment = APIRoute(
        .startExperiment,
        APIOperation(
            "Start enrolling customers who ask for offerings (one experiment runs at a time)",
            parameters: [.experimentID], answer: APIOperation.json(.named("Experiment")),
            errors: ["400", "401", "403", "404", "409", "413", "5XX"]))
    /// `POST /v1/experiments/{identifier}/stop`: stop enrolling (results stay).
    public static let stopExperiment = APIRoute(
        .stopExperiment,
        APIOperation(
            "Stop enrolling (results stay)", parameters: [.experimentID],
            answer: APIOperation.json(.named("Experiment")), errors: ["400", "401", "403", "404", "409", "413", "5XX"]))
    /// `GET /v1/experiments/{identifier}/results`: what each variant's customers did.
    public static let getExperimentResults = APIRoute(
        .getExperimentResults,
        APIOperation(
            "What each variant's enrolled customers did since enrolment, compared with the first variant",
            parameters: [.experimentID], answer: APIOperation.json(.named("ExperimentResults")),
            errors: ["401", "403", "404", "5XX"]))
}
